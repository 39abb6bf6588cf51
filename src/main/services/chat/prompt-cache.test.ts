import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

/** About `words` words of prose, different for each `salt`. */
const prose = (words: number, salt: number) =>
  Array.from({ length: words }, (_, i) => `word${(i * 7 + salt) % 97}`).join(' ') + ` (${salt})`

describe('a chat laid out for the prompt cache', () => {
  const open = useTestApps()
  const env = () => ({
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: fake.baseURLs.anthropic,
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: fake.baseURLs.openai
  })

  async function chatOf(provider: 'anthropic' | 'openai', modelId: string, turns: number) {
    const app = open({ env: env() })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider, modelId, systemPrompt: prose(900, 0) })
    for (let i = 1; i <= turns; i++) {
      app.services.chat.send(id, prose(300, i))
      await app.services.chat.idle()
    }
    return { app, id }
  }

  it('reads everything before the last exchange from the Anthropic cache, within four breakpoints', async () => {
    const { app, id } = await chatOf('anthropic', 'claude-sonnet-4-5', 4)
    const replies = fake.requests.filter((r) => r.provider === 'anthropic')
    expect(replies).toHaveLength(4)
    for (const r of replies) expect(r.cache!.breakpoints).toBeGreaterThan(0)
    for (const r of replies) expect(r.cache!.breakpoints).toBeLessThanOrEqual(4)
    // The first request writes its prefix; each later one reads all but what the last turn added.
    expect(replies[0]!.cache!.read).toBe(0)
    expect(replies[0]!.cache!.write).toBeGreaterThan(1000)
    for (let i = 1; i < replies.length; i++) {
      const r = replies[i]!
      expect(r.cache!.read).toBeGreaterThanOrEqual(replies[i - 1]!.inputTokens! - 10)
      expect(r.inputTokens! - r.cache!.read).toBeLessThan(800)
    }
    // What the provider reported is kept with each reply.
    const stored = app.services.chat.messages(id).filter((m) => m.role === 'assistant')
    expect(stored.map((m) => m.cacheReadTokens)).toEqual(replies.map((r) => r.cache!.read))
    expect(stored.map((m) => m.cacheWriteTokens)).toEqual(replies.map((r) => r.cache!.write))

    // The meter's details: the last reply and the chat, priced at the model's prices ($3 / $0.30 / $3.75 per M).
    const cost = { data: app.services.usage.cost(id) }
    const sum = (pick: (r: (typeof replies)[number]) => number) => replies.reduce((s, r) => s + pick(r), 0)
    expect(cost.data.replies).toMatchObject({
      requests: 4,
      inputTokens: sum((r) => r.inputTokens!),
      cacheReadTokens: sum((r) => r.cache!.read),
      cacheWriteTokens: sum((r) => r.cache!.write)
    })
    const last = replies.at(-1)!
    expect(cost.data.lastReply).toMatchObject({ requests: 1, cacheReadTokens: last.cache!.read })
    const { inputTokens, cacheReadTokens, cacheWriteTokens, outputTokens } = cost.data.replies
    const uncached = inputTokens - cacheReadTokens - cacheWriteTokens
    expect(cost.data.replies.costUsd).toBeCloseTo(
      (uncached * 3 + cacheReadTokens * 0.3 + cacheWriteTokens * 3.75 + outputTokens * 15) / 1e6,
      9
    )
    expect(cost.data.withoutCacheUsd).toBeCloseTo((inputTokens * 3 + outputTokens * 15) / 1e6, 9)
    expect(cost.data.cacheReported).toBe(true)
  })

  it('gives OpenAI one cache key per chat, and leaves the fields out where Settings turn them off', async () => {
    const { app, id } = await chatOf('openai', 'gpt-4o', 3)
    const bodies = fake.requests
      .filter((r) => r.provider === 'openai-chat')
      .map((r) => r.body as Record<string, unknown>)
    expect(new Set(bodies.map((b) => b.prompt_cache_key))).toEqual(new Set([`distill-${id}`]))
    const last = fake.requests.at(-1)!
    expect(last.cache!.read).toBeGreaterThan(1024)
    expect(app.services.chat.messages(id).at(-1)!.cacheReadTokens).toBe(last.cache!.read)

    app.services.settings.update({ promptCaching: { openai: false } })
    app.services.chat.send(id, 'One more')
    await app.services.chat.idle()
    expect(fake.requests.at(-1)!.body).not.toHaveProperty('prompt_cache_key')
  })
})
