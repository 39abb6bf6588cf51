import type { ContextUsage } from '../../../../shared/contract'

/** The row's words, in the meter's popover and the context inspector alike. */
export const CALIBRATION_LABEL = 'Calibration to the provider’s counts'

/** What the request's counted parts add up to: every row above "In context" but calibration. */
export function countedParts(breakdown: ContextUsage['breakdown']): number {
  return (
    breakdown.system +
    breakdown.summary +
    (breakdown.pinned ?? 0) +
    breakdown.history +
    (breakdown.attachments ?? 0) +
    breakdown.recalled +
    breakdown.draft +
    breakdown.overhead
  )
}

/**
 * What calibration to the provider's own counts adds to the counted parts (negative: takes from
 * them), so the rows shown add up to "In context"; 0 when the counts are the model's own.
 */
export function calibrationTokens(usage: Pick<ContextUsage, 'tokens' | 'breakdown'>): number {
  return usage.tokens - countedParts(usage.breakdown)
}

/** "+120", "−1,159": the row's value with its sign (read out too: it says which way the counts went). */
export function signedCount(value: number, format: (n: number) => string): string {
  return `${value > 0 ? '+' : '−'}${format(Math.abs(value))}`
}
