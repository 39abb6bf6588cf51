/**
 * Sigma ADR-006 compression within a budget: paradigm shifts verbatim, important turns condensed to
 * ~30%, routine turns to ~10% (each turn summarized on its own), the most recent turns (retention R)
 * verbatim. The budget decides how much of that fits, and the scores decide what:
 *
 * - the retained suffix takes at most `retainedShare` of the budget, so older turns always keep room;
 * - older turns are visited by score, highest first, and each gets its class's form when that still
 *   fits, else the next smaller one (verbatim → 30% → 10%), else nothing; verbatim keeps together take
 *   at most `verbatimShare` of the older turns' room, so a chat where many turns look important does
 *   not spend everything on the first few;
 * - a condensed form shorter than MIN_LINE_TOKENS is not worth a line: the turn is left to the caller's
 *   notes of older turns instead.
 *
 * When even the retained suffix does not fit (a huge message, a tiny window), its oldest turns go
 * (never splitting a tool call from its result) and what is left is cut in the middle, the newest turn
 * last. The plan never exceeds the budget, counting `lineTokens` for every older turn it shows. Pure:
 * `summarize` is the per-turn condenser (extractiveSummarizer by default).
 */
import { allowedBoundaries, retentionStart } from '../../retention'
import type { CountTokens, EngineMessage, EngineRole } from '../../types'
import { fitText, type Summarize } from '../summarize'
import type { TurnClass, TurnScore } from './score-turns'
import { withoutPhatic } from './signals'

export type TargetRatio = 1 | 0.3 | 0.1 | 0

export interface ImportanceItem {
  id: string
  seq: number
  role: EngineRole
  /** 'drop' when the budget had no room for the turn (see above). */
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
  /** Every item's tokens plus `lineTokens` for each older turn shown. */
  tokens: number
  /** False when the plan changed nothing: every turn kept verbatim. */
  acted: boolean
  fits: boolean
}

export interface ImportanceContext {
  countTokens: CountTokens
  summarize: Summarize
  /** R: tokens of the most recent turns kept verbatim (default 1000, as DESIGN §5). */
  retentionTokens?: number
  /** ADR-006: below this many turns nothing is condensed; only the budget is enforced (default 5). */
  minTurns?: number
  /** The most of the budget the retained suffix may take (default RETAINED_SHARE). */
  retainedShare?: number
  /** The most of the older turns' room verbatim keeps may take together (default VERBATIM_SHARE). */
  verbatimShare?: number
  /** What showing one older turn costs besides its text (its label and line break), in tokens. */
  lineTokens?: number
}

export const MIN_TURNS = 5
export const DEFAULT_RETENTION_TOKENS = 1000
export const RETAINED_SHARE = 0.5
export const VERBATIM_SHARE = 0.5
/** A condensed turn shorter than this carries little more than its label. */
export const MIN_LINE_TOKENS = 8

const RATIO: Record<TurnClass, TargetRatio> = { 'paradigm-shift': 1, important: 0.3, routine: 0.1 }
const LADDER: readonly TargetRatio[] = [1, 0.3, 0.1]

type Form = Pick<ImportanceItem, 'action' | 'targetRatio' | 'text' | 'tokens'>
const DROP: Form = { action: 'drop', targetRatio: 0, text: '', tokens: 0 }

export function planImportance(
  turns: readonly EngineMessage[],
  scores: readonly TurnScore[],
  budget: { historyTokens: number },
  ctx: ImportanceContext
): ImportancePlan {
  const { countTokens } = ctx
  const limit = Math.max(0, Math.floor(budget.historyTokens))
  const lineTokens = Math.max(0, ctx.lineTokens ?? 0)
  const byId = new Map(scores.map((s) => [s.id, s]))
  const classOf = (t: EngineMessage): TurnClass => byId.get(t.id)?.class ?? 'important'
  const scoreOf = (t: EngineMessage): number => byId.get(t.id)?.score ?? 5
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

  const condense = (t: EngineMessage, ratio: TargetRatio): Form => {
    if (ratio === 1) return { action: 'keep', targetRatio: 1, text: t.text, tokens: t.tokens }
    if (ratio === 0) return DROP
    const target = Math.ceil(t.tokens * ratio)
    if (target < MIN_LINE_TOKENS) return DROP
    if (target >= t.tokens) return { action: 'compress', targetRatio: ratio, text: t.text, tokens: t.tokens }
    // The condenser reads the turn without its small talk; a result it could not fit is cut in the
    // middle by fitText, and a cut this small is a fragment, not a summary: the turn is left out instead.
    const content = withoutPhatic(t.text)
    if (content === '') return DROP
    const raw = ctx
      .summarize({
        purpose: 'turn',
        messages: [
          {
            role: t.role,
            text: content,
            createdAt: t.createdAt,
            ...(t.statedDay !== undefined ? { statedDay: t.statedDay } : {})
          }
        ],
        targetTokens: target
      })
      .trim()
    const fit = fitText(raw, target, countTokens)
    return fit.tokens === 0 || fit.text !== raw ? DROP : { action: 'compress', targetRatio: ratio, ...fit }
  }

  const small = turns.length < (ctx.minTurns ?? MIN_TURNS)
  const retentionCap = Math.min(
    ctx.retentionTokens ?? DEFAULT_RETENTION_TOKENS,
    Math.floor(limit * (ctx.retainedShare ?? RETAINED_SHARE))
  )
  // Below the minimum every turn counts as retained: nothing is condensed, the budget still holds.
  const start = small ? 0 : retentionStart(turns, retentionCap)
  const items = turns.map((t, i) => (i >= start ? keep(t, true) : { ...keep(t, false), ...DROP }))
  let retainedSum = items.slice(start).reduce((s, i) => s + i.tokens, 0)

  // Older turns by score, highest first (the newer of equal scores first), each in the largest form
  // its class allows that still fits.
  let room = Math.max(0, limit - retainedSum)
  let verbatimRoom = Math.floor(room * (ctx.verbatimShare ?? VERBATIM_SHARE))
  const order = Array.from({ length: start }, (_, i) => i).sort(
    (a, b) => scoreOf(turns[b]!) - scoreOf(turns[a]!) || b - a
  )
  for (const i of order) {
    if (room < MIN_LINE_TOKENS + lineTokens) break
    const t = turns[i]!
    for (const ratio of LADDER.slice(LADDER.indexOf(RATIO[classOf(t)]))) {
      if (ratio === 1 && t.tokens > verbatimRoom) continue
      const form = condense(t, ratio)
      if (form.tokens === 0 || form.tokens + lineTokens > room) continue
      items[i] = { ...items[i]!, ...form }
      room -= form.tokens + lineTokens
      if (ratio === 1) verbatimRoom -= form.tokens
      break
    }
  }

  // The retained suffix alone is over (a small window): its oldest turns go, whole tool exchanges at a time.
  const allowed = allowedBoundaries(turns)
  for (let i = start; i < turns.length - 1 && retainedSum > limit; i++) {
    let end = i + 1
    while (end < turns.length - 1 && !allowed[end]) end++
    if (!allowed[end]) break
    for (let j = i; j < end; j++) {
      retainedSum -= items[j]!.tokens
      items[j] = { ...items[j]!, ...DROP }
    }
    i = end - 1
  }
  // Last resort: what is left of them, then the newest, is cut in the middle to fit.
  for (let i = start; i < turns.length && retainedSum > limit; i++) {
    const item = items[i]!
    if (item.tokens === 0) continue
    const fit = fitText(turns[i]!.text, Math.min(item.tokens - 1, item.tokens - (retainedSum - limit)), countTokens)
    items[i] = { ...item, ...(fit.tokens === 0 ? DROP : { action: 'compress' as const, ...fit }) }
    retainedSum += fit.tokens - item.tokens
  }

  const tokens = items.reduce((s, item, i) => s + item.tokens + (i < start && item.tokens > 0 ? lineTokens : 0), 0)
  const acted = items.some((item) => item.action !== 'keep')
  return { items, tokens, acted, fits: tokens <= limit }
}
