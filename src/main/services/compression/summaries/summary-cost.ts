import type { ModelSpec } from '../../../models/catalog'
import { usageCostUsd } from '../../../models/usage-cost'

/**
 * What a model summary costs in US dollars, from the catalog's prices; null where the model's
 * prices are unknown (local and custom models). Free models (price 0) cost 0.
 */
export function summaryCostUsd(
  spec: Pick<ModelSpec, 'pricePerMTokInput' | 'pricePerMTokOutput'>,
  inputTokens: number,
  outputTokens: number
): number | null {
  return usageCostUsd(
    { ...spec, pricePerMTokCacheRead: null, pricePerMTokCacheWrite: null },
    { inputTokens, outputTokens }
  )
}

/** Whether writing summaries with this model costs money (unknown prices count as free: local servers). */
export function isPaid(spec: Pick<ModelSpec, 'pricePerMTokInput' | 'pricePerMTokOutput'>): boolean {
  return (spec.pricePerMTokInput ?? 0) > 0 || (spec.pricePerMTokOutput ?? 0) > 0
}
