import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

describe("a chat's own context window", () => {
  const open = useTestApps()

  it('sets the budget of that chat only, caps the reply at its reserve, and clears back to the model', async () => {
    const app = open({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const small = app.services.sessions.create()
    const other = app.services.sessions.create()
    for (const s of [small, other]) app.services.sessions.update(s.id, { provider: 'openai', modelId: 'gpt-4o' })
    app.services.sessions.update(small.id, { contextWindow: 8192, maxOutput: 1024 })

    expect(app.services.next.meter(small.id).budget).toMatchObject({ window: 8192, reservedOutput: 1024 })
    expect(app.services.next.meter(other.id).budget.window).toBe(128_000)

    app.services.chat.send(small.id, 'Hello there')
    await app.services.chat.idle()
    const sent = fake.requests.filter((r) => r.provider.startsWith('openai-') && r.inputTokens !== undefined).at(-1)!
    const body = sent.body as { max_tokens?: number; max_completion_tokens?: number; max_output_tokens?: number }
    expect(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens).toBe(1024)

    app.services.sessions.update(small.id, { contextWindow: null, maxOutput: null })
    expect(app.services.next.meter(small.id).budget.window).toBe(128_000)
  })

  it('refuses a reply reserve over half the window, in words, and changes nothing', () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { contextWindow: 4096 })
    expect(() => app.services.sessions.update(session.id, { maxOutput: 3000 })).toThrow(
      'The reply can reserve at most half of the context window.'
    )
    expect(app.services.sessions.get(session.id)).toMatchObject({ contextWindow: 4096, maxOutput: null })
  })

  it('keeps a replay\u2019s window with the replay chat, so its context later fits the same budget', async () => {
    const app = open()
    const { replayConversation } = await import('../../cli/replay')
    const messages = Array.from({ length: 40 }, (_, i) => ({
      role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
      parts: [{ type: 'text' as const, text: `Turn ${i}: the crate for aisle ${i} holds ${i * 7} bolts. `.repeat(8) }]
    }))
    const spec = app.services.models.spec('openai', 'gpt-4o')
    const result = await replayConversation(app, messages, {
      model: spec,
      contextWindow: 3000,
      maxOutput: 500,
      summarizer: 'extractive'
    })
    expect(app.services.next.meter(result.sessionId).budget).toMatchObject({ window: 3000, reservedOutput: 500 })
    expect(app.services.settings.get().customModels).toEqual([])
  })
})
