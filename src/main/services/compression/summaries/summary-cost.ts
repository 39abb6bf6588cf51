import type { ModelSpec } from '../../../models/catalog'

/**
 * What a model summary costs in US dollars, from the catalog's prices; null where the model's
 * prices are unknown (local and custom models). Free models (price 0) cost 0.
 */
export function summaryCostUsd(
  spec: Pick<ModelSpec, 'pricePerMTokInput' | 'pricePerMTokOutput'>,
  inputTokens: number,
  outputTokens: number
): number | null {
  if (spec.pricePerMTokInput === null || spec.pricePerMTokOutput === null) return null
  return (inputTokens * spec.pricePerMTokInput + outputTokens * spec.pricePerMTokOutput) / 1_000_000
}

/** Whether writing summaries with this model costs money (unknown prices count as free: local servers). */
export function isPaid(spec: Pick<ModelSpec, 'pricePerMTokInput' | 'pricePerMTokOutput'>): boolean {
  return (spec.pricePerMTokInput ?? 0) > 0 || (spec.pricePerMTokOutput ?? 0) > 0
}
