import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EngineMessage } from '../types'
import { importanceOutcome, tieredOutcome, type StrategyOutcome } from './strategy-outcome'

const count = (text: string) => (text ? Math.ceil(text.length / 4) + 1 : 0)

const NAMES = ['Alice Martin', 'Bruno Keller', 'Chen Wei', 'Dana Ortiz', 'Emeka Obi', 'Farah Haddad']
const PLACES = ['Lisbon', 'Kyoto', 'Nairobi', 'Oslo', 'Quito', 'Tbilisi']
const THINGS = ['pottery class', 'marathon', 'job interview', 'camping trip', 'charity run', 'piano recital']
const PHATIC = [
  'Thanks so much!',
  'That sounds great, I agree.',
  'Haha, totally!',
  'Wow, nice!',
  'Take care, talk soon!'
]

/** A long, steady two-person chat: news with names, places and dates, and small talk in between. */
function chat(n: number): EngineMessage[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i % 6
    const news = `On ${(i % 28) + 1} May 2023 ${NAMES[(i * 5) % 6]} went to the ${THINGS[(i * 7) % 6]} in ${PLACES[(i * 11) % 6]} and paid ${100 + i} dollars for it. It was turn ${i} of our story, and the weather there was mild.`
    const text = k === 2 || k === 5 ? PHATIC[i % PHATIC.length]! : news
    return {
      id: `m${i}`,
      seq: i + 1,
      role: i % 2 ? 'assistant' : 'user',
      text,
      tokens: count(text) + 3,
      createdAt: i * 60_000
    }
  })
}

/**
 * The auto-compression loop as a chat runs it: before each user message, compress when the context
 * passes the threshold, to 70% of it, as the service asks.
 */
function replay(
  msgs: EngineMessage[],
  threshold: number,
  run: (all: EngineMessage[], historyTokens: number) => StrategyOutcome
) {
  let cutoff = -1
  let summary = ''
  const context = (upto: number) => count(summary) + msgs.slice(cutoff + 1, upto + 1).reduce((s, m) => s + m.tokens, 0)
  const compressedAt: number[] = []
  const after: number[] = []
  let maxContext = 0
  msgs.forEach((m, i) => {
    if (m.role !== 'user') return
    if (context(i) > threshold) {
      const out = run(msgs.slice(0, i), Math.floor(threshold * 0.7) - m.tokens)
      if (out.cutoffIndex >= 0) {
        cutoff = out.cutoffIndex
        summary = out.summaryText
        compressedAt.push(i)
        after.push(context(i))
      }
    }
    maxContext = Math.max(maxContext, context(i))
  })
  return { compressedAt, after, maxContext, summary }
}

describe.each([
  [
    'importance',
    (all: EngineMessage[], h: number) =>
      importanceOutcome({ messages: all, historyTokens: h, countTokens: count, retentionTokens: 1000 })
  ],
  [
    'tiered',
    (all: EngineMessage[], h: number) =>
      tieredOutcome({ messages: all, historyTokens: h, countTokens: count, userBoundaries: new Set() })
  ]
] as const)('%s over a long chat', (_name, run) => {
  const msgs = chat(400)
  const threshold = 3000
  const r = replay(msgs, threshold, run)

  it('leaves headroom after each compression, so the next turns do not compress again at once', () => {
    expect(r.compressedAt.length).toBeGreaterThan(3)
    for (const a of r.after) expect(a).toBeLessThanOrEqual(threshold * 0.7)
    // Steady input: never on two user turns in a row, and far fewer compressions than turns.
    for (let k = 1; k < r.compressedAt.length; k++)
      expect(r.compressedAt[k]! - r.compressedAt[k - 1]!).toBeGreaterThan(2)
    expect(r.compressedAt.length).toBeLessThan(msgs.length / 10)
  })

  it('never sends more than the threshold', () => {
    expect(r.maxContext).toBeLessThanOrEqual(threshold)
  })

  it('keeps facts from the whole chat, not only the recent turns', () => {
    // A date from the first tenth of the chat is still somewhere in the summary.
    const early = msgs
      .slice(0, 40)
      .filter((m) => m.text.startsWith('On '))
      .map((m) => m.text.split(' went')[0]!)
    expect(early.some((d) => r.summary.includes(d.slice(3)))).toBe(true)
  })
})

describe('tieredOutcome over a long chat', () => {
  const out = tieredOutcome({ messages: chat(400), historyTokens: 2000, countTokens: count, userBoundaries: new Set() })
  const parts = out.summaryText.split(/^(?=### )/m).map((p) => {
    const range = /\(messages (\d+)–(\d+)\)/.exec(p)
    const lines = p.split('\n').filter((l) => l.startsWith('- ')).length
    return { archive: p.startsWith('### Archived'), lines, messages: range ? +range[2]! - +range[1]! + 1 : 0 }
  })
  const density = (ps: typeof parts) =>
    ps.reduce((s, p) => s + p.lines, 0) /
    Math.max(
      1,
      ps.reduce((s, p) => s + p.messages, 0)
    )

  it('writes the summarized tiers as one set of notes, under one header, no line twice', () => {
    expect(out.summaryText.match(/^Summary of/gm)).toHaveLength(1)
    const lines = out.summaryText.split('\n').filter((l) => l.startsWith('- '))
    expect(new Set(lines).size).toBe(lines.length)
  })

  it('keeps the archive about as dense as the latest topics', () => {
    const archive = parts.filter((p) => p.archive)
    const topics = parts.filter((p) => !p.archive && p.messages > 0)
    expect(archive.length).toBeGreaterThan(0)
    expect(topics.length).toBeGreaterThan(0)
    expect(density(archive)).toBeGreaterThanOrEqual(0.5 * density(topics))
  })
})

describe('importanceOutcome', () => {
  it('prints the older turns as notes, the weightier first, never a turn whole', () => {
    const msgs = chat(200)
    const out = importanceOutcome({ messages: msgs, historyTokens: 1500, countTokens: count, retentionTokens: 300 })
    expect(out.summaryText.match(/^Summary of/gm)).toHaveLength(1)
    for (const m of msgs.slice(0, out.cutoffIndex + 1)) expect(out.summaryText).not.toContain(m.text)
    expect(out.summaryText).not.toContain('…')
    expect(out.importance!.compressed).toBeGreaterThan(0)
    expect(out.importance!.compressed + out.importance!.dropped).toBe(out.cutoffIndex + 1)
  })

  it('never goes over its budget, whatever the chat (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 200 })), {
          minLength: 1,
          maxLength: 60
        }),
        fc.integer({ min: 60, max: 4000 }),
        (specs, historyTokens) => {
          const base = chat(specs.length)
          const msgs = base.map((m, i) => {
            const text = `${PHATIC[specs[i]![0] % PHATIC.length]} ${m.text.repeat(specs[i]![0])}${specs[i]![1]}`.trim()
            return { ...m, text, tokens: count(text) + 3 }
          })
          const out = importanceOutcome({ messages: msgs, historyTokens, countTokens: count, retentionTokens: 1000 })
          const verbatim = msgs.slice(out.cutoffIndex + 1).reduce((s, m) => s + m.tokens, 0)
          expect(count(out.summaryText) + verbatim).toBeLessThanOrEqual(historyTokens)
        }
      ),
      { numRuns: 40 }
    )
  })

  it('fits its budget with the labels, framing and digest counted', () => {
    const msgs = chat(120)
    for (const historyTokens of [200, 600, 1500, 3000]) {
      const out = importanceOutcome({ messages: msgs, historyTokens, countTokens: count, retentionTokens: 1000 })
      const verbatim = msgs.slice(out.cutoffIndex + 1).reduce((s, m) => s + m.tokens, 0)
      expect(count(out.summaryText) + verbatim).toBeLessThanOrEqual(historyTokens)
    }
  })
})

describe('summaries of a transcript that states its dates', () => {
  // Replayed or imported: every message was written today, and only each session's first message says when.
  const today = Date.UTC(2026, 10, 25)
  const sessions = [
    ['(1:56 pm on 8 May, 2023) Hi Mel!', 'Yesterday I went to the LGBTQ support group in Boston.'],
    ['(10:37 am on 27 June, 2023) Hey Caroline!', 'Last Friday I signed up for a pottery class with Oscar.']
  ]
  const msgs: EngineMessage[] = []
  for (const s of sessions)
    for (let r = 0; r < 12; r++)
      for (const text of s) {
        const body = r === 0 ? text : text.replace(/^\([^)]*\) /, '') + ` Round ${r} of it, with Dana Ortiz in Lisbon.`
        msgs.push({
          id: `m${msgs.length}`,
          seq: msgs.length + 1,
          role: msgs.length % 2 ? 'assistant' : 'user',
          text: body,
          tokens: count(body) + 3,
          createdAt: today + msgs.length * 1000
        })
      }

  it.each([
    [
      'tiered',
      () => tieredOutcome({ messages: msgs, historyTokens: 300, countTokens: count, userBoundaries: new Set() })
    ],
    [
      'importance',
      () => importanceOutcome({ messages: msgs, historyTokens: 300, countTokens: count, retentionTokens: 60 })
    ]
  ])('%s dates every line by the transcript, never by the day it was imported', (_, run) => {
    const out = run()
    expect(out.summaryText).toMatch(/2023/)
    expect(out.summaryText).not.toMatch(/2026/)
  })
})
