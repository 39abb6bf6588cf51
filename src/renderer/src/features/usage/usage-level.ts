import type { ContextUsage } from '../../../../shared/contract'
import { formatTokens } from '../../lib/format-tokens'

export type UsageLevel = 'normal' | 'warn' | 'danger'

/** Orange from 80% of the usable budget, red from 95% (DESIGN §6, FR-6.1.1). */
export function usageLevel(tokens: number, usable: number): UsageLevel {
  if (usable <= 0) return 'danger'
  const ratio = tokens / usable
  if (ratio >= 0.95) return 'danger'
  if (ratio >= 0.8) return 'warn'
  return 'normal'
}

/**
 * Whether the count is an estimate. The server's `exact` speaks of the stored history only, so an
 * empty chat of a model without a tokenizer also counts as an estimate, by its counter.
 */
export function isEstimate(usage: Pick<ContextUsage, 'exact' | 'counter'>): boolean {
  if (!usage.exact) return true
  return !(usage.counter.startsWith('tiktoken:') || usage.counter.startsWith('api:') || usage.counter === 'mixed')
}

/** "41.2k of 105.2k tokens", with a word on estimates, for screen readers. */
export function usageValueText(usage: Pick<ContextUsage, 'tokens' | 'exact' | 'counter' | 'budget'>): string {
  const text = `${formatTokens(usage.tokens)} of ${formatTokens(usage.budget.usable)} tokens`
  return isEstimate(usage) ? `${text} (estimated)` : text
}

/** A share of the budget as a bar width, 0–100. */
export function percentOf(value: number, total: number): number {
  if (total <= 0) return value > 0 ? 100 : 0
  return Math.min(100, Math.max(0, (value / total) * 100))
}
