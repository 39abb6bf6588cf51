import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EngineMessage } from '../../types'
import { extractiveSummarizer } from '../summarize'
import { compressTiered, compressTieredAsync, effectiveAllocations } from './compress'
import { DEFAULT_TIERED_CONFIG } from './config'
import { addMessage, emptyTieredState, sealCurrentTopic } from './state'
import type { TieredEvent, TieredState } from './types'
import { getTieredContext, tieredTokens } from './view'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const summarize = extractiveSummarizer(count)
const ctx = { countTokens: count, summarize }
const MIN = 60_000

const SENTENCES = [
  'The staging database listens on port 5433.',
  'We decided to ship the importer on 2025-03-14.',
  'Alice Martin owns the billing service.',
  'The cache hit rate dropped to 71% after the deploy.',
  'Use `pnpm build --filter web` to build only the site.',
  'The invoice total was €1,840 including tax.',
  'Retries back off exponentially up to 30 seconds.',
  'The CSV export truncates names longer than 64 characters.'
]

function message(seq: number, text: string, extra: Partial<EngineMessage> = {}): EngineMessage {
  return {
    id: `m${seq}`,
    seq,
    role: seq % 2 ? 'user' : 'assistant',
    text,
    tokens: count(text),
    createdAt: seq * MIN,
    ...extra
  }
}

const prose = (seq: number, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => SENTENCES[(seq * 3 + i) % SENTENCES.length]).join(' ')

/** A conversation of `topics` topics of `perTopic` messages each, split by explicit phrases. */
function conversation(topics: number, perTopic: number, sentences = 3): EngineMessage[] {
  const out: EngineMessage[] = []
  for (let t = 0; t < topics; t++) {
    for (let i = 0; i < perTopic; i++) {
      const seq = out.length + 1
      // Odd seqs are user messages: each topic starts with one.
      const opener = i === 0 && t > 0 ? `New topic ${t}: ` : ''
      out.push(message(seq, opener + prose(seq, sentences)))
    }
    if (perTopic % 2 === 1) out.push(message(out.length + 1, 'Noted.'))
  }
  return out
}

const build = (msgs: readonly EngineMessage[], historyTokens = 1_000_000) =>
  msgs.reduce((s, m) => addMessage(s, m, { historyTokens }), emptyTieredState())

const kinds = (events: readonly TieredEvent[]) => events.map((e) => e.kind)

describe('addMessage / sealCurrentTopic', () => {
  it('groups messages into topics at boundaries and never modifies its input', () => {
    const msgs = conversation(3, 4)
    const state = build(msgs)
    expect(state.topics.map((t) => t.messages.length)).toEqual([4, 4])
    expect(state.topics.map((t) => t.sealedBy)).toEqual(['phrase', 'phrase'])
    expect(state.current.messages.map((m) => m.id)).toEqual(['m9', 'm10', 'm11', 'm12'])
    expect(state.current).toMatchObject({ id: 'topic-m9', sealed: false, firstSeq: 9, lastSeq: 12 })
    const frozen = structuredClone(state)
    addMessage(state, message(13, 'Switching gears: lunch?'), { historyTokens: 1000 })
    sealCurrentTopic(state)
    expect(state).toEqual(frozen)
  })

  it('seals on the user action, and not an empty topic', () => {
    const state = build(conversation(1, 2))
    const sealed = sealCurrentTopic(state)
    expect(sealed.topics).toHaveLength(1)
    expect(sealed.topics[0]).toMatchObject({ sealed: true, sealedBy: 'user' })
    expect(sealed.current.messages).toEqual([])
    expect(sealCurrentTopic(sealed)).toBe(sealed)
  })

  it('seals after silence and when the topic outgrows 60% of its allocation', () => {
    let s = emptyTieredState()
    s = addMessage(s, message(1, 'hello'), { historyTokens: 1000 })
    s = addMessage(s, message(2, 'hi', { createdAt: 2 * MIN }), { historyTokens: 1000 })
    s = addMessage(s, message(3, 'back again', { createdAt: 2 * MIN + 31 * MIN }), { historyTokens: 1000 })
    expect(s.topics.map((t) => t.sealedBy)).toEqual(['silence'])
    // 20 tokens of topic vs 60% of 50% of 60 = 18.
    s = addMessage(s, message(4, 'x'.repeat(40)), { historyTokens: 60 })
    s = addMessage(s, message(5, 'next'), { historyTokens: 60 })
    expect(s.topics.map((t) => t.sealedBy)).toEqual(['silence', 'size'])
  })
})

describe('compressTiered escalation', () => {
  it('leaves a history that fits untouched', () => {
    const state = build(conversation(3, 4))
    const r = compressTiered(state, { historyTokens: tieredTokens(state) }, ctx)
    expect(r.state).toBe(state)
    expect(r.events).toEqual([])
  })

  it('a small overshoot only truncates the large message', () => {
    const msgs = conversation(1, 6)
    msgs[2] = message(3, `${'The importer reads every row of the ledger. '.repeat(120)}`)
    const state = build(msgs)
    const total = tieredTokens(state)
    const r = compressTiered(state, { historyTokens: total - 40 }, ctx)
    expect(kinds(r.events)).toEqual(['truncate'])
    expect(r.tokensAfter).toBeLessThanOrEqual(total - 40)
    const shown = getTieredContext(r.state).find((i) => i.sourceIds[0] === 'm3')!
    expect(shown.text).toMatch(/\[\.\.\.\d+\.\.\.\]/)
    expect(shown.truncatedChars).toBeGreaterThan(0)
    // The stored message is untouched.
    expect(r.state.current.messages[2]!.text).toBe(msgs[2]!.text)
  })

  it('attention keeps first and last and folds the oldest 65% of the middle (Agent Zero: 12 → 6)', () => {
    const state = build(conversation(1, 12))
    const total = tieredTokens(state)
    const r = compressTiered(state, { historyTokens: total - 60 }, ctx)
    expect(kinds(r.events)).toEqual(['attention'])
    // Without history the current topic may use the whole budget, not only its 50% share.
    expect(r.tokensAfter).toBeGreaterThan(0.6 * (total - 60))
    const items = getTieredContext(r.state)
    expect(items.map((i) => i.kind)).toEqual(['message', 'attention', 'message', 'message', 'message', 'message'])
    expect(items[0]!.sourceIds).toEqual(['m1'])
    expect(items[1]!.sourceIds).toEqual(['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8'])
    expect(items.at(-1)!.sourceIds).toEqual(['m12'])
  })

  it.each([
    [4, 3],
    [6, 4],
    [8, 5],
    [12, 6]
  ])('one attention round turns %i messages into %i (Agent Zero table)', (n, after) => {
    const state = build(conversation(1, n))
    // With so few messages each is over 25% of the budget: let none count as large here.
    const config = { ...DEFAULT_TIERED_CONFIG, largeMessageRatio: 1 }
    const r = compressTiered(state, { historyTokens: tieredTokens(state) - 1 }, { ...ctx, config })
    expect(kinds(r.events)).toEqual(['attention'])
    expect(getTieredContext(r.state)).toHaveLength(after)
  })

  it('a larger overshoot summarizes topics, oldest first, before merging them into bulks', () => {
    const state = build(conversation(8, 4))
    const total = tieredTokens(state)
    const r = compressTiered(state, { historyTokens: Math.floor(total * 0.6) }, ctx)
    const k = kinds(r.events)
    expect(k).toContain('topic-summary')
    expect(k).not.toContain('bulk-drop')
    const summaries = r.events.flatMap((e) => (e.kind === 'topic-summary' ? [e.topicId] : []))
    expect(summaries).toEqual(state.topics.slice(0, summaries.length).map((t) => t.id))
    const firstMerge = k.indexOf('bulk-merge')
    if (firstMerge >= 0) expect(k.lastIndexOf('topic-summary')).toBeLessThan(firstMerge)
    expect(r.fits).toBe(true)
  })

  it('merges the 3 oldest topics into a bulk when summaries are not enough, then cascades bulks instead of dropping them', () => {
    const state = build(conversation(12, 4, 4))
    const total = tieredTokens(state)
    const mid = compressTiered(state, { historyTokens: Math.floor(total * 0.3) }, ctx)
    const k = kinds(mid.events)
    expect(k).toContain('bulk-merge')
    const merge = mid.events.find((e) => e.kind === 'bulk-merge')!
    expect(merge.kind === 'bulk-merge' && merge.topicIds).toEqual(state.topics.slice(0, 3).map((t) => t.id))
    expect(k.lastIndexOf('topic-summary')).toBeLessThan(k.indexOf('bulk-merge'))

    const tight = compressTiered(state, { historyTokens: Math.floor(total * 0.12) }, ctx)
    const kt = kinds(tight.events)
    expect(kt).toContain('bulk-cascade')
    expect(kt.indexOf('bulk-merge')).toBeLessThan(kt.indexOf('bulk-cascade'))
    expect(kt).not.toContain('bulk-drop')
    expect(tight.fits).toBe(true)
    // The archives still stand for the chat from its first message.
    expect(tight.state.bulks[0]!.firstSeq).toBe(1)

    // Only when even one archive does not fit is the oldest one dropped.
    const tiny = compressTiered(state, { historyTokens: Math.floor(total * 0.03) }, ctx)
    const kd = kinds(tiny.events)
    if (kd.includes('bulk-drop')) expect(kd.indexOf('bulk-cascade')).toBeLessThan(kd.indexOf('bulk-drop'))
    // The current topic's last message is always there, verbatim.
    const last = state.current.messages.at(-1)!
    expect(getTieredContext(tight.state).at(-1)).toMatchObject({
      kind: 'message',
      sourceIds: [last.id],
      text: last.text
    })
  })

  it('never cascades bulks across a "New topic" the user set', () => {
    const msgs = conversation(12, 4, 4)
    // At the end of the first three topics: the bulk merge of those stops there, a cascade must too.
    const boundary = msgs[11]!.seq
    const state = msgs.reduce((s, m) => {
      const next = addMessage(s, m, { historyTokens: 1_000_000 })
      return m.seq === boundary ? sealCurrentTopic(next, 'user') : next
    }, emptyTieredState())
    const r = compressTiered(state, { historyTokens: Math.floor(tieredTokens(state) * 0.12) }, ctx)
    expect(kinds(r.events)).toContain('bulk-cascade')
    expect(r.state.bulks.filter((b) => b.firstSeq <= boundary && b.lastSeq > boundary)).toEqual([])
  })

  it('lends the share of empty tiers to the tiers over theirs', () => {
    const usage = { current: 900, topics: 100, bulks: 0 }
    // Slack: topics 200, bulks 200; only the current topic is over its 500.
    expect(effectiveAllocations(usage, 1000, DEFAULT_TIERED_CONFIG)).toEqual({ current: 900, topics: 300, bulks: 200 })
    const two = effectiveAllocations({ current: 700, topics: 400, bulks: 0 }, 1000, DEFAULT_TIERED_CONFIG)
    // 200 of slack split 5:3 between the two tiers over their share.
    expect(two.current).toBeCloseTo(625)
    expect(two.topics).toBeCloseTo(375)
  })

  it('runs the same with an asynchronous summarizer', async () => {
    const state = build(conversation(6, 4))
    const budget = { historyTokens: Math.floor(tieredTokens(state) * 0.4) }
    const sync = compressTiered(state, budget, ctx)
    const async = await compressTieredAsync(state, budget, { countTokens: count, summarize: async (i) => summarize(i) })
    expect(async).toEqual(sync)
  })

  it('cuts an over-long summary from the summarizer down to its target', () => {
    const state = build(conversation(6, 4))
    const budget = { historyTokens: Math.floor(tieredTokens(state) * 0.4) }
    const r = compressTiered(state, budget, { countTokens: count, summarize: () => 'blah '.repeat(5000) })
    expect(r.fits).toBe(true)
    for (const t of r.state.topics)
      if (t.summaryTokens !== undefined)
        expect(t.summaryTokens).toBeLessThanOrEqual(DEFAULT_TIERED_CONFIG.topicSummaryTokens)
  })
})

describe('compressTiered properties', () => {
  const arbMessage = fc.record({
    sentences: fc.integer({ min: 0, max: 40 }),
    junk: fc.string({ maxLength: 300 }),
    gapMinutes: fc.integer({ min: 0, max: 45 }),
    phrase: fc.boolean(),
    big: fc.integer({ min: 0, max: 12 })
  })

  it('fits the budget whenever it holds the current topic first and last messages; keeps order and the last message', () => {
    fc.assert(
      fc.property(
        fc.array(arbMessage, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 200, max: 20_000 }),
        (specs, extraRaw, seal) => {
          let t = 0
          const msgs = specs.map((s, i) => {
            t += s.gapMinutes * MIN
            const text = `${i % 2 === 0 && s.phrase ? 'Different question: ' : ''}${prose(i, s.sentences)}${s.junk}${s.big === 0 ? 'z'.repeat(9000) : ''}`
            return { ...message(i + 1, text), createdAt: t }
          })
          let state: TieredState = emptyTieredState()
          for (const m of msgs) state = addMessage(state, m, { historyTokens: seal })
          const cur = state.current.messages
          const floor = cur[0]!.tokens + (cur.length > 1 ? cur.at(-1)!.tokens : 0)
          const total = tieredTokens(state)
          const budget = floor + (extraRaw % Math.max(1, total - floor + 50))
          const frozen = structuredClone(state)
          const r = compressTiered(state, { historyTokens: budget }, ctx)
          expect(state).toEqual(frozen)
          expect(r.tokensAfter).toBeLessThanOrEqual(budget)
          expect(r.fits).toBe(true)
          const items = getTieredContext(r.state)
          expect(items.reduce((s, i) => s + i.tokens, 0)).toBe(r.tokensAfter)
          for (let i = 1; i < items.length; i++) expect(items[i]!.firstSeq).toBeGreaterThan(items[i - 1]!.lastSeq)
          const last = cur.at(-1)!
          expect(items.at(-1)).toMatchObject({ kind: 'message', sourceIds: [last.id], text: last.text })
          // A JSON round trip keeps the state whole: it is plain data.
          expect(JSON.parse(JSON.stringify(r.state))).toEqual(r.state)
        }
      ),
      { numRuns: 150 }
    )
  })
})
