import type { ContextUsage } from '../../../../shared/contract'

/** While a model switch's recount runs: the meter holds scaled estimates, and how far it is. */
export function recountNote(usage: Pick<ContextUsage, 'recounting' | 'recountProgress'>): string | undefined {
  if (!usage.recounting) return undefined
  const share = usage.recountProgress === null ? '' : ` (${Math.floor(usage.recountProgress * 100)}%)`
  return `Estimate — recounting the history for this model${share}. Until it is done, older messages’ counts are scaled from their previous model’s.`
}
