import type { Budget } from './budget'
import type { CompressionSettings } from './types'

export type TriggerDecision =
  | { compress: true; reason: 'over-threshold' }
  | { compress: false; reason: 'under-threshold' | 'below-minimum' }

/**
 * FR-1.2 / FR-5.4.1: compress before a request when its context (system prompt, summary, history,
 * pending input) would pass T × U, unless the compressible history is below the minimum.
 */
export function compressionTrigger(options: {
  contextTokens: number
  compressibleTokens: number
  budget: Budget
  settings: CompressionSettings
}): TriggerDecision {
  if (options.contextTokens <= options.budget.threshold) return { compress: false, reason: 'under-threshold' }
  if (options.compressibleTokens < options.settings.minimumTokens) return { compress: false, reason: 'below-minimum' }
  return { compress: true, reason: 'over-threshold' }
}
