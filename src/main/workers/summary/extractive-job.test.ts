import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../models/catalog'
import { PASS_CHARS, runExtractiveJob } from './extractive-job'
import { summaryCounter } from './job-texts'

const spec = CATALOG.find((m) => m.provider === 'openai' && m.id === 'gpt-4o')!
const count = summaryCounter(spec)

/** Messages of ~1,000 characters, each with facts of its own. */
function span(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    createdAt: Date.UTC(2024, 0, 1) + i * 3_600_000,
    text: Array.from(
      { length: 8 },
      (_, k) => `Shipment ${i * 8 + k} left dock ${(i + k) % 7} with ${(i * 31 + k) % 900} crates of part ${k}B.`
    ).join(' ')
  }))
}

describe('a long span is summarized in passes', () => {
  const messages = span(Math.ceil((2.5 * PASS_CHARS) / 700))

  it('says how far it is after each pass but the last', () => {
    const passes: Array<[number, number]> = []
    runExtractiveJob({ spec, request: { messages, targetTokens: 600 } }, undefined, count, (done, total) =>
      passes.push([done, total])
    )
    const chars = messages.reduce((n, m) => n + m.text.length, 0)
    expect(passes.length).toBe(Math.ceil(chars / PASS_CHARS) - 1)
    expect(passes.every(([, total]) => total === messages.length)).toBe(true)
    expect(passes.map(([done]) => done)).toEqual([...passes.map(([done]) => done)].sort((a, b) => a - b))
    expect(passes.at(-1)![0]).toBeLessThan(messages.length)
  })

  it('fits its target and counts every message of the span', () => {
    const summary = runExtractiveJob({ spec, request: { messages, targetTokens: 600 } })
    expect(count(summary)).toBeLessThanOrEqual(600)
    expect(summary).toMatch(new RegExp(`^Summary of ${messages.length} earlier messages`))
    // The last pass's messages are there, and so are the first's, carried.
    expect(summary).toMatch(/January 2024/)
    expect(summary).toMatch(/(April|May) 2024/)
  })

  it("after a model's summary, says how many messages were added to it in all", () => {
    const previousSummary = 'The team planned the spring inventory and agreed on weekly dock audits.'
    const summary = runExtractiveJob({ spec, request: { previousSummary, messages, targetTokens: 600 } })
    expect(summary).toMatch(new RegExp(`^Summary of the earlier conversation and ${messages.length} more messages`))
    expect(count(summary)).toBeLessThanOrEqual(600)
  })
})

describe('counts asked together', () => {
  it('writes the same summary, asking one by one for only a few texts', () => {
    const messages = span(60)
    const job = { spec, request: { messages, targetTokens: 500 } }
    const alone: string[] = []
    const without = runExtractiveJob(job, undefined, (t) => (alone.push(t), count(t)))
    const one: string[] = []
    let batches = 0
    const withBatches = runExtractiveJob(
      job,
      undefined,
      (t) => (one.push(t), count(t)),
      undefined,
      (texts) => (batches++, texts.map(count))
    )
    expect(withBatches).toBe(without)
    expect(batches).toBe(1)
    expect(one.length).toBeLessThan(alone.length / 4)
  })

  it('counts one by one when no answer comes', () => {
    const job = { spec, request: { messages: span(30), targetTokens: 400 } }
    expect(runExtractiveJob(job, undefined, count, undefined, () => undefined)).toBe(runExtractiveJob(job))
  })
})
