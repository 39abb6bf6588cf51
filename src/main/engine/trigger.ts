import type { Budget } from './budget'
import type { CompressionSettings } from './types'

export type TriggerDecision =
  | { compress: true; reason: 'over-threshold' | 'over-window' }
  | { compress: false; reason: 'under-threshold' | 'below-minimum' | 'nothing-to-compress' }

/**
 * FR-1.2 / FR-5.4.1: compress before a request when its context (system prompt, summary, history,
 * pending input; counted tokens) would pass T × U, unless the compressible history is below the
 * minimum. A request that would not fit at all compresses whatever the minimum says: otherwise its
 * oldest messages would have to go, and nothing may leave a request unless a summary holds it.
 */
export function compressionTrigger(options: {
  contextTokens: number
  compressibleTokens: number
  budget: Pick<Budget, 'countedThreshold' | 'countedUsable'>
  settings: CompressionSettings
}): TriggerDecision {
  if (options.contextTokens <= options.budget.countedThreshold) return { compress: false, reason: 'under-threshold' }
  if (options.compressibleTokens <= 0) return { compress: false, reason: 'nothing-to-compress' }
  if (options.contextTokens > options.budget.countedUsable) return { compress: true, reason: 'over-window' }
  if (options.compressibleTokens < options.settings.minimumTokens) return { compress: false, reason: 'below-minimum' }
  return { compress: true, reason: 'over-threshold' }
}
