import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { EventEnvelope } from '../../../shared/contract'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const isSummary = (r: { body: unknown }) => JSON.stringify(r.body).includes('conversation summarization assistant')
/** About `tokens` tokens of text (the fake counts four characters a token). */
const words = (tokens: number, tag: string) => `${tag} ` + 'lantern harbor copper meadow '.repeat(Math.ceil(tokens / 7))

/** Automatic model summaries grow by appending while they have room (issue 34). */
describe('a model summary that grows by appending', () => {
  const open = useTestApps()

  it('keeps the summary before word for word, so the request after the compression reads it from the cache', async () => {
    const app = open({
      backgroundRetryMs: [10, 10],
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.baseURLs.anthropic }
    })
    const events: EventEnvelope[] = []
    app.events.subscribe((e) => events.push(e))
    app.services.settings.update({
      customModels: [{ provider: 'anthropic', id: 'claude-16k', contextWindow: 16_384, maxOutput: 1024 }]
    })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'anthropic', modelId: 'claude-16k', recall: false })
    const active = () => app.services.compression.active(id).summary
    let n = 0
    for (let i = 1; !active()?.content.appendedAt && i < 60; i++) {
      fake.script([{ for: 'summary', reply: words(1300, `SUMMARY${++n}`) }, { reply: words(1500, `ANSWER${i}`) }])
      app.services.chat.send(id, `Question ${i}: tell me more about the harbor.`)
      await app.services.chat.idle()
      await app.services.compression.backgroundSettled(id)
    }
    const second = active()!
    const first = app.services.compression.snapshots(id).find((s) => s.id === second.content.restoresSnapshotId)!
    // The new summary is the one before, word for word, and the new span's summary after it.
    expect(first.content.summarizer).not.toBe('extractive')
    expect(second.content.summaryText.startsWith(first.content.summaryText)).toBe(true)
    expect(second.content.appendedAt).toEqual([...(first.content.appendedAt ?? []), first.content.summaryText.length])
    expect(second.content.summaryText.length).toBeGreaterThan(first.content.summaryText.length + 100)
    expect(events.some((e) => e.event === 'compression.done')).toBe(true)

    // The next request sends the summary as two blocks and reads the first summary from the cache.
    fake.script([{ reply: 'ok' }])
    app.services.chat.send(id, 'And then?')
    await app.services.chat.idle()
    const request = [...fake.requests].reverse().find((r) => r.provider === 'anthropic' && !isSummary(r))!
    const system = (request.body as { system: Array<{ text: string; cache_control?: unknown }> }).system
    expect(system.map((b) => b.text).join('')).toContain(second.content.summaryText)
    expect(system.length).toBeGreaterThanOrEqual(2)
    expect(request.cache!.read).toBeGreaterThan(1000)
  }, 60_000)
})
