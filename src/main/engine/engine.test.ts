import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildContext } from './build-context'
import { computeBudget } from './budget'
import { AFTER_COMPRESSION_TARGET, planCompression } from './strategies/rolling/plan-compression'
import { allowedBoundaries, retentionStart } from './retention'
import { truncateMiddle } from './truncate'
import type { EngineMessage } from './types'

const count = (text: string) => Math.ceil(text.length / 4) + 3

function message(seq: number, text: string, extra: Partial<EngineMessage> = {}): EngineMessage {
  return {
    id: `m${seq}`,
    seq,
    role: seq % 2 ? 'user' : 'assistant',
    text,
    tokens: count(text),
    createdAt: seq,
    ...extra
  }
}

describe('retention (FR-1.3.4)', () => {
  it('keeps the longest suffix within the retention budget', () => {
    const msgs = [400, 300, 300, 300].map((t, i) => ({ ...message(i + 1, 'x'), tokens: t }))
    // Last 3 = 900 ≤ 1000, last 4 = 1300 > 1000: keep 3.
    expect(retentionStart(msgs, 1000)).toBe(1)
    expect(retentionStart(msgs, 299)).toBe(4)
  })

  it('never separates a tool call from its result', () => {
    const msgs = [
      { ...message(1, 'q'), tokens: 100 },
      { ...message(2, 'call'), tokens: 100, toolCallIds: ['c1'] },
      { ...message(3, 'result'), tokens: 100, role: 'tool' as const, toolResultIds: ['c1'] },
      { ...message(4, 'answer'), tokens: 100 }
    ]
    // 250 would fit the result and the answer, but not the call: both go.
    expect(retentionStart(msgs, 250)).toBe(3) // only the answer
    expect(retentionStart(msgs, 300)).toBe(1)
  })
})

describe('tool exchange boundaries', () => {
  /** The definition, checked boundary by boundary: no call before i has its result at or after i. */
  function reference(msgs: readonly EngineMessage[]): boolean[] {
    const callAt = new Map<string, number>()
    msgs.forEach((m, i) => m.toolCallIds?.forEach((id) => callAt.set(id, i)))
    return Array.from({ length: msgs.length + 1 }, (_, b) =>
      msgs.every((m, j) => j < b || !(m.toolResultIds ?? []).some((id) => (callAt.get(id) ?? Infinity) < b))
    )
  }

  it('computes any suffix of the boundaries exactly as over the whole history', () => {
    const exchange = fc.record({
      calls: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 2 }),
      results: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 2 })
    })
    fc.assert(
      fc.property(fc.array(exchange, { maxLength: 30 }), fc.nat(), (shape, seed) => {
        const msgs = shape.map((s, i) => ({
          ...message(i + 1, 'x'),
          ...(s.calls.length ? { toolCallIds: s.calls.map((c) => `c${c}`) } : {}),
          ...(s.results.length ? { toolResultIds: s.results.map((c) => `c${c}`) } : {})
        }))
        const from = seed % (msgs.length + 1)
        expect(allowedBoundaries(msgs)).toEqual(reference(msgs))
        expect(allowedBoundaries(msgs, from)).toEqual(reference(msgs).slice(from))
      })
    )
  })
})

describe('truncateMiddle', () => {
  it('keeps start and end and says how much was cut', () => {
    const text = `BEGIN ${'middle '.repeat(2000)} END`
    const out = truncateMiddle(text, 200, count)
    expect(out.startsWith('BEGIN')).toBe(true)
    expect(out.endsWith('END')).toBe(true)
    const removed = Number(/\[\.\.\.(\d+)\.\.\.\]/.exec(out)![1])
    expect(out.length - out.match(/\n\[\.\.\.\d+\.\.\.\]\n/)![0].length + removed).toBe(text.length)
    expect(count(out)).toBeLessThanOrEqual(200)
  })
})

describe('planCompression', () => {
  const budget = computeBudget({ contextWindow: 8000, maxOutput: 1000, safetyMarginPercent: 5, thresholdPercent: 95 })
  const settings = { thresholdPercent: 95, retentionTokens: 1000, minimumTokens: 2000 }
  const msgs = Array.from({ length: 60 }, (_, i) => message(i + 1, `message number ${i + 1} `.repeat(20)))

  it('summarizes what is older than the retained suffix and includes the previous summary', () => {
    const summary = {
      id: 's1',
      text: 'earlier',
      tokens: 300,
      cutoffSeq: 0,
      cutoffMessageId: 'm0',
      firstMessageId: 'm0',
      messagesIncluded: 10,
      originalTokens: 5000
    }
    const plan = planCompression({
      messages: msgs,
      summary,
      systemTokens: 50,
      pendingInputTokens: 20,
      overheadTokens: 3,
      budget,
      settings
    })
    expect(plan.previousSummary).toBe(summary)
    expect(plan.toSummarize.length + plan.retained.length).toBe(60)
    expect(plan.retained.reduce((s, m) => s + m.tokens, 0)).toBeLessThanOrEqual(1000)
    expect(plan.retained.at(-1)!.seq).toBe(60)
    expect(plan.estimatedTokensAfter).toBeLessThan(budget.threshold)
    expect(plan.estimatedTokensAfter).toBeLessThan(plan.tokensBefore)
  })

  it('summarizes everything by default when asked by hand, warning below the minimum', () => {
    const few = msgs.slice(0, 4)
    const plan = planCompression({
      messages: few,
      systemTokens: 0,
      pendingInputTokens: 0,
      overheadTokens: 3,
      budget,
      settings,
      manual: true
    })
    expect(plan.retained).toEqual([])
    expect(plan.toSummarize).toHaveLength(4)
    expect(plan.belowMinimum).toBe(true)
    expect(plan.warnings.join(' ')).toMatch(
      /^This chat's summary and messages come to [\d,]+ tokens, under the minimum of 2,000 tokens for compression/
    )
  })

  it('gives the summary the room the retained messages leave below the after-compression mark', () => {
    const plan = planCompression({
      messages: msgs,
      systemTokens: 50,
      pendingInputTokens: 20,
      overheadTokens: 3,
      budget,
      settings
    })
    const retained = plan.retained.reduce((s, m) => s + m.tokens, 0)
    // More than the old fixed share of the budget, and summary + retained still leave the headroom.
    expect(plan.targetSummaryTokens).toBeGreaterThan(Math.floor(budget.usable * 0.15))
    expect(73 + plan.targetSummaryTokens + retained).toBeLessThanOrEqual(
      Math.floor(budget.threshold * AFTER_COMPRESSION_TARGET)
    )
    const capped = planCompression({
      messages: msgs,
      systemTokens: 50,
      pendingInputTokens: 20,
      overheadTokens: 3,
      budget,
      settings,
      summaryTokensCap: 300
    })
    expect(capped.targetSummaryTokens).toBe(300)
  })

  it('shrinks retention when the window is too small for it (FR-5.3)', () => {
    const tiny = computeBudget({ contextWindow: 1792, maxOutput: 512, safetyMarginPercent: 5, thresholdPercent: 95 })
    const plan = planCompression({
      messages: msgs,
      systemTokens: 0,
      pendingInputTokens: 0,
      overheadTokens: 3,
      budget: tiny,
      settings
    })
    expect(plan.retentionTokens).toBeLessThan(1000)
    expect(plan.warnings[0]).toMatch(/window is too small/)
    expect(plan.estimatedTokensAfter).toBeLessThanOrEqual(tiny.threshold)
  })
})

describe('buildContext properties', () => {
  const arbMessages = fc.array(fc.string({ minLength: 0, maxLength: 3000 }), { maxLength: 40 })

  it('never exceeds the usable budget, never reorders, never drops the pending input', () => {
    fc.assert(
      fc.property(
        arbMessages,
        fc.string({ minLength: 1, maxLength: 20_000 }),
        fc.option(fc.string({ maxLength: 8000 }), { nil: undefined }),
        fc.option(fc.string({ maxLength: 4000 }), { nil: undefined }),
        fc.integer({ min: 120, max: 20_000 }),
        (texts, inputText, summaryText, systemText, usable) => {
          const msgs = texts.map((t, i) => message(i + 1, t))
          const built = buildContext({
            system: systemText === undefined ? undefined : { text: systemText, tokens: count(systemText) },
            summary: summaryText === undefined ? undefined : { id: 's', text: summaryText, tokens: count(summaryText) },
            messages: msgs,
            input: { text: inputText, tokens: count(inputText) },
            usable,
            overheadTokens: 3,
            countTokens: count
          })
          expect(built.tokens).toBeLessThanOrEqual(usable)
          expect(built.fits).toBe(true)
          const inputs = built.messages.filter((m) => m.kind === 'input')
          expect(inputs).toHaveLength(1)
          expect(built.messages.at(-1)!.kind).toBe('input')
          const seqs = built.messages.filter((m) => m.kind === 'message').map((m) => Number(m.sourceId!.slice(1)))
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
          // Kept messages are the most recent ones: dropping only ever removes the oldest.
          if (seqs.length > 0) expect(seqs.at(-1)).toBe(msgs.length)
          expect(built.tokens).toBe(built.messages.reduce((s, m) => s + m.tokens, 0) + 3)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('leaves a context that fits untouched', () => {
    const msgs = [message(1, 'hello'), message(2, 'hi there')]
    const built = buildContext({
      messages: msgs,
      input: { text: 'next', tokens: count('next') },
      usable: 10_000,
      overheadTokens: 3,
      countTokens: count
    })
    expect(built.messages.map((m) => m.content)).toEqual(['hello', 'hi there', 'next'])
    expect(built).toMatchObject({ truncated: 0, dropped: 0, fits: true })
  })
})
