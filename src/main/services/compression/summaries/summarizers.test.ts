import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../../e2e/fake-provider'
import type { EngineMessage } from '../../../engine/types'
import { transcriptChunks } from './summarizers'

const count = (text: string) => Math.ceil(text.length / 4)
const message = (i: number, words: number): EngineMessage => {
  const text = `Message ${i}: ` + 'word '.repeat(words)
  return { id: `m${i}`, seq: i, role: i % 2 ? 'assistant' : 'user', text, tokens: count(text) + 4, createdAt: i }
}

describe('the transcript in parts that fit the summarization model', () => {
  it('keeps every message, in order, with each part within the room, by stored counts', async () => {
    const messages = Array.from({ length: 400 }, (_, i) => message(i, 30 + (i % 7) * 10))
    const chunks = await transcriptChunks(messages, 1_000, count)
    expect(chunks.length).toBeGreaterThan(10)
    expect(chunks.flat()).toHaveLength(400)
    expect(chunks.flat().map((l) => Number(/Message (\d+):/.exec(l)![1]))).toEqual(messages.map((m) => m.seq))
    for (const part of chunks) expect(part.reduce((s, l) => s + count(l), 0)).toBeLessThanOrEqual(1_000)
  })

  it('cuts a message larger than half the room in the middle, and keeps a short span in one part', async () => {
    const chunks = await transcriptChunks([message(1, 5), message(2, 4_000), message(3, 5)], 1_000, count)
    expect(chunks.flat()).toHaveLength(3)
    const huge = chunks.flat()[1]!
    expect(count(huge)).toBeLessThanOrEqual(500)
    expect(huge).toMatch(/\[\.\.\.[\d,]+\.\.\.\]/)
    expect(await transcriptChunks([message(1, 5), message(2, 5)], 1_000, count)).toHaveLength(1)
    expect(await transcriptChunks([], 1_000, count)).toEqual([[]])
  })
})

describe('a long span and a summarization model with a small window', async () => {
  const { useFakeProvider, useTestApps } = await import('../../../../../test/support/test-apps')
  let fake!: FakeProvider
  useFakeProvider((f) => (fake = f))
  const open = useTestApps()

  /** A gpt-4o chat of `turns` messages whose summaries a custom model with this window and max output writes. */
  async function chatSummarizedBy(
    limits: { contextWindow: number; maxOutput: number },
    turns: number,
    text: (i: number) => string
  ) {
    const app = open({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'small-sum', ...limits }],
      summarizationModel: 'small-sum'
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o', autoCompress: false })
    for (let i = 0; i < turns; i++)
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: text(i) }]
      })
    return { app, session }
  }

  it('is summarized in parts, each request within that window, each folding the summary so far in', async () => {
    const { app, session } = await chatSummarizedBy(
      { contextWindow: 2048, maxOutput: 512 },
      30,
      (i) => `Turn ${i}: ` + `the shed ${i} code is ${1000 + i}. `.repeat(12)
    )
    const before = fake.requests.length
    fake.script(Array.from({ length: 40 }, (_, i) => ({ reply: `PART ${i + 1}.` })))
    const { snapshot } = await app.services.compression.run(session.id, { summarizer: 'llm', retentionOverride: 1 })
    const parts = fake.requests.slice(before).filter((r) => r.inputTokens !== undefined)
    expect(parts.length).toBeGreaterThan(1)
    for (const r of parts) expect(r.inputTokens!).toBeLessThanOrEqual(2048 - 512)
    // Each later part carries the summary so far; the stored summary is the last part's.
    expect(parts.length).toBeLessThan(40)
    expect(JSON.stringify(parts[1]!.body)).toContain('PART 1.')
    expect(snapshot.content.summaryText.startsWith(`PART ${parts.length}.`)).toBe(true)
    expect(JSON.stringify(parts.map((r) => r.body))).toContain('Turn 29:')
    expect(JSON.stringify(parts.map((r) => r.body))).toContain('Turn 0:')
  })

  it('fills each request to a 4,096 window, asks for at most the max output, and says the requests and their progress first', async () => {
    const { app, session } = await chatSummarizedBy(
      { contextWindow: 4096, maxOutput: 1024 },
      120,
      (i) => `Turn ${i}: ` + `the lighthouse ${i} keeper logged ${1000 + i} gulls. `.repeat(20)
    )
    const preview = await app.services.compression.preview(session.id, 0)
    expect(preview.summarizationModel).toBe('small-sum')
    const events: Array<{ event: string; payload: unknown }> = []
    app.events.subscribe((e) => events.push(e))
    const before = fake.requests.length
    // Summaries about as long as asked for, as a model writes them.
    fake.script(
      Array.from({ length: 100 }, (_, i) => ({
        reply: `PART ${i + 1}. ` + 'The keeper counted the gulls. '.repeat(120)
      }))
    )
    await app.services.compression.run(session.id, { summarizer: 'llm', retentionOverride: 0 })
    const parts = fake.requests.slice(before).filter((r) => r.inputTokens !== undefined)

    // The dialog said at most how many requests it would take (before any reply, the server's count is assumed high).
    expect(parts.length).toBeGreaterThan(1)
    expect(parts.length).toBeLessThanOrEqual(preview.summaryRequests)
    expect(parts.length).toBeGreaterThan(preview.summaryRequests / 2)
    const asked = parts.map(
      (r) => r.body as { max_tokens?: number; max_output_tokens?: number; max_completion_tokens?: number }
    )
    for (const [i, r] of parts.entries()) {
      const max = asked[i]!.max_output_tokens ?? asked[i]!.max_completion_tokens ?? asked[i]!.max_tokens
      expect(max).toBeLessThanOrEqual(1024)
      expect(r.inputTokens! + max!).toBeLessThanOrEqual(4096)
    }
    // Filled once the first reply said what the server counts: every later part but the last carries
    // over two thirds of the window (the old sizing sent ~300 tokens of transcript).
    for (const r of parts.slice(1, -1)) expect(r.inputTokens!).toBeGreaterThan(2730)
    const progress = events
      .filter((e) => e.event === 'compression.progress')
      .map((e) => (e.payload as { part?: { done: number; total: number } }).part)
    expect(progress.filter((p) => p).map((p) => p!.done)).toEqual(parts.map((_, i) => i))
    expect(progress.at(-1)).toBeUndefined() // the last part streams its text
    expect(progress.filter((p) => p).at(-1)!.total).toBe(parts.length)
  })
})
