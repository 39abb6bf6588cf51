import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EngineMessage } from '../../types'
import { extractiveSummarizer } from '../summarize'
import { planImportance } from './plan-importance'
import { scoreTurns, type TurnScore } from './score-turns'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const ctx = { countTokens: count, summarize: extractiveSummarizer(count), retentionTokens: 0 }
const turn = (i: number, text: string, extra: Partial<EngineMessage> = {}): EngineMessage => ({
  id: `t${i}`,
  seq: i + 1,
  role: i % 2 ? 'assistant' : 'user',
  text,
  tokens: count(text),
  createdAt: i,
  ...extra
})

const LONG = [
  'The nightly export job reads every invoice of the previous day and writes one CSV per tenant.',
  'It runs on the reporting replica, so it never competes with the checkout traffic on the primary.',
  'Large tenants take about forty minutes because the query scans the whole ledger table.',
  'An index on the creation date would bring that down to a few minutes according to the plan.',
  'The files land in the shared bucket and the finance team downloads them every morning.',
  'Nobody has complained about the format so far, though the column order is a bit odd.'
].join(' ')

const score = (id: string, cls: TurnScore['class']): TurnScore => ({
  id,
  score: cls === 'paradigm-shift' ? 8 : cls === 'important' ? 5 : 1,
  signals: { novelty: 0, phatic: 0, decision: 0, numbers: 0, code: 0, entities: 0 },
  class: cls
})

describe('planImportance', () => {
  const turns = Array.from({ length: 8 }, (_, i) => turn(i, `${LONG} (part ${i})`))
  const classes: TurnScore['class'][] = [
    'paradigm-shift',
    'important',
    'routine',
    'routine',
    'important',
    'paradigm-shift',
    'routine',
    'important'
  ]
  const scores = turns.map((t, i) => score(t.id, classes[i]!))

  it('keeps paradigm shifts, condenses important turns to ~30% and routine ones to ~10%', () => {
    const plan = planImportance(turns, scores, { historyTokens: 100_000 }, { ...ctx, retentionTokens: 0 })
    expect(plan.acted).toBe(true)
    plan.items.forEach((item, i) => {
      const t = turns[i]!
      const ratio = { 'paradigm-shift': 1, important: 0.3, routine: 0.1 }[classes[i]!]
      expect(item.targetRatio).toBe(ratio)
      expect(item.action).toBe(ratio === 1 ? 'keep' : 'compress')
      expect(item.tokens).toBeLessThanOrEqual(Math.ceil(t.tokens * ratio))
      if (ratio === 1) expect(item.text).toBe(t.text)
    })
    expect(plan.tokens).toBe(plan.items.reduce((s, i) => s + i.tokens, 0))
  })

  it('keeps the retained suffix verbatim', () => {
    const plan = planImportance(
      turns,
      scores,
      { historyTokens: 100_000 },
      { ...ctx, retentionTokens: turns[7]!.tokens + turns[6]!.tokens }
    )
    expect(plan.items.slice(6).map((i) => [i.action, i.retained, i.text])).toEqual([
      ['keep', true, turns[6]!.text],
      ['keep', true, turns[7]!.text]
    ])
    expect(plan.items[5]!.retained).toBe(false)
  })

  it('condenses nothing below 5 turns, but still holds the budget', () => {
    const few = turns.slice(0, 4)
    const relaxed = planImportance(few, scores, { historyTokens: 100_000 }, ctx)
    expect(relaxed.acted).toBe(false)
    expect(relaxed.items.every((i) => i.action === 'keep')).toBe(true)
    const tight = planImportance(few, scores, { historyTokens: few[3]!.tokens + 5 }, ctx)
    expect(tight.fits).toBe(true)
    // The oldest go first; the newest stays verbatim.
    expect(tight.items.map((i) => i.action)).toEqual(['drop', 'drop', 'drop', 'keep'])
    expect(planImportance(turns.slice(0, 5), scores, { historyTokens: 100_000 }, ctx).acted).toBe(true)
  })

  it('leaves the lowest-scored turns out first when the budget is tight', () => {
    const all = { ...ctx, verbatimShare: 1 }
    const relaxed = planImportance(turns, scores, { historyTokens: 100_000 }, all)
    const routine = relaxed.items.filter((i) => i.class === 'routine').reduce((s, i) => s + i.tokens, 0)
    const plan = planImportance(turns, scores, { historyTokens: relaxed.tokens - routine }, all)
    expect(plan.fits).toBe(true)
    expect(plan.items.filter((i) => i.class === 'routine').every((i) => i.action === 'drop')).toBe(true)
    expect(plan.items.filter((i) => i.class !== 'routine').map((i) => i.targetRatio)).toEqual([1, 0.3, 0.3, 1, 0.3])
  })

  it('keeps verbatim only within its share, choosing the highest scores, and steps the others down', () => {
    // Every turn looks like a paradigm shift, as on a chat where everything seems news.
    const shifts = turns.map((t, i) => ({ ...score(t.id, 'paradigm-shift'), score: 7 + i / 10 }))
    const plan = planImportance(turns, shifts, { historyTokens: 1000 }, { ...ctx, verbatimShare: 0.5, lineTokens: 4 })
    expect(plan.fits).toBe(true)
    const verbatim = plan.items.filter((i) => i.action === 'keep')
    expect(verbatim.reduce((s, i) => s + i.tokens, 0)).toBeLessThanOrEqual(500)
    // The highest scores (the newest here) are the ones kept whole; lower ones are condensed instead of lost.
    expect(verbatim.length).toBeGreaterThan(0)
    const condensed = plan.items.filter((i) => i.action === 'compress')
    expect(condensed.length).toBeGreaterThan(0)
    expect(Math.min(...verbatim.map((i) => i.seq))).toBeGreaterThan(Math.max(...condensed.map((i) => i.seq)))
  })

  it('leaves out a turn whose condensed form would be a fragment', () => {
    const short = Array.from({ length: 8 }, (_, i) => turn(i, `Sounds good, talk soon number ${i}.`))
    const plan = planImportance(
      short,
      short.map((t) => score(t.id, 'routine')),
      { historyTokens: 100_000 },
      ctx
    )
    expect(plan.items.every((i) => i.action === 'drop')).toBe(true)
  })

  it('respects the budget (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 400 }), fc.boolean()), {
          minLength: 5,
          maxLength: 40
        }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 12 }),
        (specs, historyTokens, retentionTokens, lineTokens) => {
          const ts = specs.map(([n, junk, tool], i) => {
            const text = `${LONG.slice(0, n * 90)}${junk}`
            // Pairs of tool call and result now and then.
            if (tool && i % 2 === 0) return turn(i, text, { toolCallIds: [`c${i}`] })
            if (i % 2 === 1 && specs[i - 1]?.[2]) return turn(i, text, { role: 'tool', toolResultIds: [`c${i - 1}`] })
            return turn(i, text)
          })
          const plan = planImportance(ts, scoreTurns(ts), { historyTokens }, { ...ctx, retentionTokens, lineTokens })
          expect(plan.tokens).toBeLessThanOrEqual(historyTokens)
          expect(plan.fits).toBe(true)
          const shown = plan.items.filter((i) => !i.retained && i.tokens > 0).length
          expect(plan.tokens).toBe(plan.items.reduce((s, i) => s + i.tokens, 0) + shown * lineTokens)
          // The retained suffix never takes more than its share of the budget, unless it is all there is.
          const retained = plan.items.filter((i) => i.retained).reduce((s, i) => s + i.tokens, 0)
          if (plan.items.some((i) => !i.retained)) expect(retained).toBeLessThanOrEqual(historyTokens / 2)
          expect(plan.items.map((i) => i.id)).toEqual(ts.map((t) => t.id))
          for (const item of plan.items) if (item.action === 'drop') expect(item).toMatchObject({ text: '', tokens: 0 })
        }
      ),
      { numRuns: 200 }
    )
  })

  it('is deterministic', () => {
    const s = scoreTurns(turns)
    expect(planImportance(turns, s, { historyTokens: 500 }, ctx)).toEqual(
      planImportance(turns, s, { historyTokens: 500 }, ctx)
    )
  })
})
