import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { appendMessage } from '../../db/repositories/messages/messages-repo'
import { countMessage } from '../../tokens/message-tokens'
import { countChatRequest } from '../../tokens/openai-count'
import { toChatWireMessages } from '../../tokens/render'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

/** Waits until background counting has settled. */
async function settle(app: App): Promise<void> {
  await app.services.chat.idle()
  for (let i = 0; i < 50; i++) {
    const pending = app.database.sqlite
      .prepare('SELECT count(*) AS n FROM chat_messages WHERE token_count IS NULL AND json_array_length(parts) > 0')
      .get() as { n: number }
    if (pending.n === 0) return
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('context usage', () => {
  const openApp = useTestApps()

  function open() {
    return openApp({
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseURLs.openai,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: fake.baseURLs.anthropic
      }
    })
  }

  it('counts the next OpenAI request exactly, from stored counts, plus the draft', async () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, {
      provider: 'openai',
      modelId: 'gpt-4o',
      systemPrompt: 'You are concise.'
    })
    app.services.chat.send(session.id, 'Plan a three-day trip to Kyoto in April.')
    await settle(app)
    app.services.chat.send(session.id, 'Add a day in Nara, please.')
    await settle(app)

    const messages = app.services.chat.messages(session.id)
    expect(messages.every((m) => m.tokenCounter === 'tiktoken:o200k_base' && m.tokenCount! > 0)).toBe(true)

    const wire = [
      { role: 'system' as const, parts: [{ type: 'text' as const, text: 'You are concise.' }] },
      ...messages,
      { role: 'user' as const, parts: [{ type: 'text' as const, text: 'And Osaka?' }] }
    ].flatMap((m) => toChatWireMessages(m))
    const expected = countChatRequest(wire, 'o200k_base')

    const usage = app.services.next.meter(session.id, 'And Osaka?')
    expect(usage.tokens).toBe(expected)
    expect(usage).toMatchObject({
      exact: true,
      counter: 'tiktoken:o200k_base',
      messages: 4,
      modelLabel: 'GPT-4o',
      budget: { window: 128_000, reservedOutput: 16_384, thresholdPercent: 95 }
    })
    expect(usage.breakdown.draft).toBeGreaterThan(0)
    expect(app.services.next.meter(session.id).tokens).toBe(expected - usage.breakdown.draft)
  })

  it('recounts once for a model with another tokenizer and says counts are estimates', async () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    app.services.chat.send(session.id, 'Summarize the plot of Hamlet in two sentences.')
    await settle(app)
    app.services.sessions.update(session.id, { provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
    const first = app.services.next.meter(session.id)
    expect(first.exact).toBe(false)
    expect(first.budget.thresholdPercent).toBe(90) // FR-5.2.1: more conservative on estimates
    // The background recount stores counts from the new model's counter.
    for (let i = 0; i < 100 && app.services.next.meter(session.id).recounting; i++)
      await new Promise((r) => setTimeout(r, 20))
    const counters = app.services.chat.messages(session.id).map((m) => m.tokenCounter)
    expect(counters.every((c) => c !== 'tiktoken:o200k_base')).toBe(true)
  })

  it('recounts on the summary thread exactly as the main thread counts', async () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    const texts = ['Plain words.', 'Zahlen 12345 und Ümlaute', '```ts\nconst x = 1\n```', 'emoji 🎉 and "quotes"']
    for (const [i, text] of texts.entries())
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text }]
      })
    await settle(app)
    app.services.sessions.update(session.id, { provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
    app.services.next.meter(session.id)
    for (let i = 0; i < 200 && app.services.next.meter(session.id).recounting; i++)
      await new Promise((r) => setTimeout(r, 20))
    const spec = app.services.models.spec('anthropic', 'claude-sonnet-4-5')
    for (const m of app.services.chat.messages(session.id)) {
      const here = countMessage({ role: m.role, parts: m.parts }, spec)
      expect({ tokens: m.tokenCount, counter: m.tokenCounter }).toEqual({ tokens: here.tokens, counter: here.counter })
    }
  })

  it('after a model switch, shows a scaled estimate at once and recounts in the background with progress', async () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    const spec = app.services.models.spec('openai', 'gpt-4o')
    app.database.db.transaction((tx) => {
      for (let i = 0; i < 1500; i++) {
        const parts = [
          {
            type: 'text' as const,
            text: `Message ${i}: the shipment to depot ${i % 37} left on day ${i}, carrying ${i * 3} crates of parts and tools. `.repeat(
              1 + (i % 4)
            )
          }
        ]
        const role = i % 2 ? ('assistant' as const) : ('user' as const)
        const counted = countMessage({ role, parts }, spec)
        appendMessage(tx, {
          id: `m${i}`,
          sessionId: session.id,
          role,
          parts,
          status: 'complete',
          createdAt: i,
          tokenCount: counted.tokens,
          tokenCounter: counted.counter
        })
      }
    })
    app.services.sessions.update(session.id, { provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
    const first = app.services.next.meter(session.id)
    expect(first).toMatchObject({ recounting: true, exact: false })
    expect(first.recountProgress).toBeGreaterThanOrEqual(0)
    // Nothing was recounted before answering: the counts are still the old model's.
    expect(
      app.services.chat.messages(session.id).filter((m) => m.tokenCounter === 'tiktoken:o200k_base').length
    ).toBeGreaterThan(1400)
    const progress: number[] = []
    for (let i = 0; i < 500 && app.services.next.meter(session.id).recounting; i++) {
      progress.push(app.services.next.meter(session.id).recountProgress!)
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true)
    const done = app.services.next.meter(session.id)
    expect(done).toMatchObject({ recounting: false, recountProgress: null })
    const stored = app.services.chat.messages(session.id).reduce((sum, m) => sum + m.tokenCount!, 0)
    expect(done.breakdown.history).toBe(stored)
    // The estimate shown meanwhile was close to the real count.
    expect(Math.abs(first.breakdown.history - stored) / stored).toBeLessThan(0.1)
  })

  it('answers chat.context through the router with the budget of the model', async () => {
    const app = open()
    const session = app.services.sessions.create()
    const res = await app.router.call('chat.context', { sessionId: session.id, draft: 'hello' })
    expect(res).toMatchObject({ ok: true, data: { provider: 'openai', modelId: 'gpt-4o-mini', messages: 0 } })
  })
})
