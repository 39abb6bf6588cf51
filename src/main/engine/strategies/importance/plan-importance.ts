/**
 * Sigma ADR-006 compression: paradigm shifts verbatim, important turns condensed to ~30%, routine
 * turns to ~10% (each turn summarized on its own), the most recent turns (retention R) verbatim, and
 * nothing at all below 5 turns. When that is still over the budget, in this order, oldest first, until
 * it fits: routine turns go; important turns go to 10%, then go; paradigm shifts go to 30%, 10%, then
 * go; the oldest retained turns go (never splitting a tool call from its result); what is left is cut
 * in the middle, the newest turn last. Pure: `summarize` is the per-turn condenser (extractiveSummarizer by default).
 */
import { allowedBoundaries, retentionStart } from '../../retention'
import type { CountTokens, EngineMessage, EngineRole } from '../../types'
import { fitText, type Summarize } from '../summarize'
import type { TurnClass, TurnScore } from './score-turns'

export type TargetRatio = 1 | 0.3 | 0.1 | 0

export interface ImportanceItem {
  id: string
  seq: number
  role: EngineRole
  /** 'drop' only when the budget forces it (see the escalation above). */
  action: 'keep' | 'compress' | 'drop'
  targetRatio: TargetRatio
  class: TurnClass
  /** Inside the retained suffix. */
  retained: boolean
  /** What the model is shown for this turn (empty when dropped). */
  text: string
  tokens: number
}

export interface ImportancePlan {
  items: ImportanceItem[]
  tokens: number
  /** False below the minimum number of turns: everything is kept as it is. */
  acted: boolean
  fits: boolean
}

export interface ImportanceContext {
  countTokens: CountTokens
  summarize: Summarize
  /** R: tokens of the most recent turns kept verbatim (default 1000, as DESIGN §5). */
  retentionTokens?: number
  /** ADR-006: no compression with fewer analysed turns than this (default 5). */
  minTurns?: number
}

export const MIN_TURNS = 5
export const DEFAULT_RETENTION_TOKENS = 1000

const RATIO: Record<TurnClass, TargetRatio> = { 'paradigm-shift': 1, important: 0.3, routine: 0.1 }

export function planImportance(
  turns: readonly EngineMessage[],
  scores: readonly TurnScore[],
  budget: { historyTokens: number },
  ctx: ImportanceContext
): ImportancePlan {
  const { countTokens } = ctx
  const limit = Math.max(0, Math.floor(budget.historyTokens))
  const byId = new Map(scores.map((s) => [s.id, s]))
  const classOf = (t: EngineMessage): TurnClass => byId.get(t.id)?.class ?? 'important'
  const keep = (t: EngineMessage, retained: boolean): ImportanceItem => ({
    id: t.id,
    seq: t.seq,
    role: t.role,
    action: 'keep',
    targetRatio: 1,
    class: classOf(t),
    retained,
    text: t.text,
    tokens: t.tokens
  })
  const total = (items: readonly ImportanceItem[]) => items.reduce((s, i) => s + i.tokens, 0)

  if (turns.length < (ctx.minTurns ?? MIN_TURNS)) {
    const items = turns.map((t) => keep(t, true))
    return { items, tokens: total(items), acted: false, fits: total(items) <= limit }
  }

  const condense = (t: EngineMessage, ratio: TargetRatio): Pick<ImportanceItem, 'action' | 'targetRatio' | 'text' | 'tokens'> => {
    if (ratio === 1) return { action: 'keep', targetRatio: 1, text: t.text, tokens: t.tokens }
    if (ratio === 0) return { action: 'drop', targetRatio: 0, text: '', tokens: 0 }
    const target = Math.ceil(t.tokens * ratio)
    if (target >= t.tokens) return { action: 'compress', targetRatio: ratio, text: t.text, tokens: t.tokens }
    const raw = ctx.summarize({ purpose: 'turn', messages: [{ role: t.role, text: t.text, createdAt: t.createdAt }], targetTokens: target })
    return { action: 'compress', targetRatio: ratio, ...fitText(raw, target, countTokens) }
  }

  const start = retentionStart(turns, ctx.retentionTokens ?? DEFAULT_RETENTION_TOKENS)
  const items = turns.map((t, i) => {
    const base = keep(t, i >= start)
    return i >= start ? base : { ...base, ...condense(t, RATIO[base.class]) }
  })

  // Over the budget: step down the oldest turns of each kind in turn.
  let sum = total(items)
  const steps: Array<[TurnClass, TargetRatio, TargetRatio]> = [
    ['routine', 0.1, 0],
    ['important', 0.3, 0.1],
    ['important', 0.1, 0],
    ['paradigm-shift', 1, 0.3],
    ['paradigm-shift', 0.3, 0.1],
    ['paradigm-shift', 0.1, 0]
  ]
  for (const [cls, from, to] of steps) {
    for (let i = 0; i < start && sum > limit; i++) {
      const item = items[i]!
      if (item.class !== cls || item.targetRatio !== from) continue
      const next = { ...item, ...condense(turns[i]!, to) }
      sum += next.tokens - item.tokens
      items[i] = next
    }
  }

  // Still over (a small window): the retained turns go, oldest first and whole tool exchanges at a time.
  const allowed = allowedBoundaries(turns)
  for (let i = start; i < turns.length - 1 && sum > limit; i++) {
    let end = i + 1
    while (end < turns.length - 1 && !allowed[end]) end++
    if (!allowed[end]) break
    for (let j = i; j < end; j++) {
      sum -= items[j]!.tokens
      items[j] = { ...items[j]!, action: 'drop', targetRatio: 0, text: '', tokens: 0 }
    }
    i = end - 1
  }
  // Last resort: what is left of the retained turns, then the newest, is cut in the middle to fit.
  for (let i = start; i < turns.length && sum > limit; i++) {
    const item = items[i]!
    if (item.tokens === 0) continue
    const fit = fitText(turns[i]!.text, Math.min(item.tokens - 1, item.tokens - (sum - limit)), countTokens)
    items[i] = { ...item, action: fit.tokens === 0 ? 'drop' : 'compress', targetRatio: fit.tokens === 0 ? 0 : item.targetRatio, ...fit }
    sum += fit.tokens - item.tokens
  }
  return { items, tokens: sum, acted: true, fits: sum <= limit }
}
