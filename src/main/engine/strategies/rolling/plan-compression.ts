import type { Budget } from '../../budget'
import { retentionStart } from '../../retention'
import { type ActiveSummary, type CompressionSettings, type EngineMessage, totalTokens } from '../../types'

/** A summary gets at least this share of the usable budget (room allowing)… */
export const SUMMARY_SHARE = 0.15
/** …and at least this many tokens when the window allows it. */
export const MIN_SUMMARY_TOKENS = 200
export const MAX_SUMMARY_TOKENS = 4000
/** What a summary typically takes of the text it covers (for estimates before it is written). */
export const EXPECTED_SUMMARY_RATIO = 0.35
/**
 * After compression the context should sit below the threshold, or the next turn compresses again; but
 * every token under this mark is room the summary does not get. On the LoCoMo dev conversations at a
 * 4,096 window (docs/quality.md), rolling keeps 61.4 / 62.9 / 64.1 / 63.9% of the answers' words at
 * 0.75 / 0.8 / 0.85 / 0.9 (0.7 kept 59.5%) with the summary at most half of what is left, and 66.6% (mean
 * of three windows) at 0.9 with SUMMARY_CEILING_SHARE 0.6; a compression every ~16 messages at 4,096
 * against ~23 at 0.85 and ~39 at 0.7.
 */
export const AFTER_COMPRESSION_TARGET = 0.9
/** The most of what is left after the fixed parts (system prompt, pending input) a summary may take. */
export const SUMMARY_CEILING_SHARE = 0.6

export interface PlanInput {
  /** The active history: messages after the current summary's cutoff, oldest first (pending input excluded). */
  messages: readonly EngineMessage[]
  summary?: ActiveSummary
  systemTokens: number
  pendingInputTokens: number
  overheadTokens: number
  budget: Budget
  settings: CompressionSettings
  /** Manual compression: summarize everything unless a retention override is given (FR-2.2). */
  manual?: boolean
  retentionOverride?: number
  /** A tighter summary after a result that did not fit (FR-5.3: re-summarize with a higher ratio). */
  summaryTokensCap?: number
}

export interface CompressionPlan {
  /** Messages the new summary covers (besides the previous summary). */
  toSummarize: EngineMessage[]
  retained: EngineMessage[]
  previousSummary?: ActiveSummary
  targetSummaryTokens: number
  /** The retention actually used: lower than asked when the budget is tight (FR-5.3). */
  retentionTokens: number
  tokensBefore: number
  estimatedTokensAfter: number
  /** Nothing new to summarize. */
  empty: boolean
  /** FR-5.4.2: the history is below the minimum (allowed for manual compression, with a warning). */
  belowMinimum: boolean
  warnings: string[]
}

/**
 * Decides what a compression summarizes and what stays verbatim (DESIGN §5). Pure: the service
 * executes the plan, checks the result and writes the snapshot.
 */
export function planCompression(input: PlanInput): CompressionPlan {
  const { messages, summary, budget, settings } = input
  const warnings: string[] = []
  const fixed = input.systemTokens + input.pendingInputTokens + input.overheadTokens
  const historyTokens = totalTokens(messages)
  const tokensBefore = fixed + (summary?.tokens ?? 0) + historyTokens
  // Counted tokens throughout: the budget restated in the unit messages are counted in.
  const available = Math.max(0, budget.countedUsable - fixed)

  let targetSummaryTokens = Math.min(
    MAX_SUMMARY_TOKENS,
    Math.max(MIN_SUMMARY_TOKENS, Math.floor(budget.countedUsable * SUMMARY_SHARE)),
    // Never more than half of what is left for history.
    Math.floor(available / 2)
  )
  if (input.summaryTokensCap !== undefined) targetSummaryTokens = Math.min(targetSummaryTokens, input.summaryTokensCap)
  targetSummaryTokens = Math.max(0, targetSummaryTokens)

  let retention = input.manual ? (input.retentionOverride ?? 0) : (input.retentionOverride ?? settings.retentionTokens)
  // FR-5.3: keep summary + retained messages well inside the threshold; shrink retention if not.
  const roomForRetained = Math.max(
    0,
    Math.floor(budget.countedThreshold * AFTER_COMPRESSION_TARGET) - fixed - targetSummaryTokens
  )
  if (retention > roomForRetained) {
    if (!input.manual || input.retentionOverride !== undefined) {
      warnings.push(
        `Kept ${roomForRetained.toLocaleString('en-US')} tokens of recent messages instead of ${retention.toLocaleString('en-US')}: the window is too small for more.`
      )
    }
    retention = roomForRetained
  }

  const start = retentionStart(messages, retention)
  const toSummarize = messages.slice(0, start)
  const retained = messages.slice(start)
  // …and whatever the retained messages leave below the after-compression mark: that room would
  // otherwise stay empty until the next compression, and the headroom above the mark keeps those rare.
  const roomLeft = Math.floor(budget.countedThreshold * AFTER_COMPRESSION_TARGET) - fixed - totalTokens(retained)
  const ceiling = Math.min(
    MAX_SUMMARY_TOKENS,
    Math.floor(available * SUMMARY_CEILING_SHARE),
    input.summaryTokensCap ?? Number.POSITIVE_INFINITY
  )
  targetSummaryTokens = Math.max(targetSummaryTokens, Math.min(roomLeft, ceiling))
  const empty = toSummarize.length === 0
  const belowMinimum = (summary?.tokens ?? 0) + historyTokens < settings.minimumTokens
  if (belowMinimum && input.manual && !empty) {
    warnings.push(
      // The figure compared, said: "Tokens now" beside it also counts the system prompt and the framing.
      `This chat's summary and messages come to ${((summary?.tokens ?? 0) + historyTokens).toLocaleString('en-US')} tokens, under the minimum of ${settings.minimumTokens.toLocaleString('en-US')} tokens for compression; summarizing them saves little.`
    )
  }
  const summarizedTokens = (summary?.tokens ?? 0) + totalTokens(toSummarize)
  // A summary rarely needs its whole target: estimate it at a typical ratio of what it covers.
  const summaryAfter = empty
    ? (summary?.tokens ?? 0)
    : Math.min(targetSummaryTokens, Math.ceil(summarizedTokens * EXPECTED_SUMMARY_RATIO))
  return {
    toSummarize,
    retained,
    previousSummary: summary,
    targetSummaryTokens,
    retentionTokens: retention,
    tokensBefore,
    estimatedTokensAfter: fixed + summaryAfter + totalTokens(retained),
    empty,
    belowMinimum,
    warnings
  }
}
