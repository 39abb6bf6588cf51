import type { ModelSpec } from './catalog'

/** What a provider reported for one request: input (all of it), the cached parts of it, output. */
export interface ReportedUsage {
  inputTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  outputTokens?: number
}

type Prices = Pick<
  ModelSpec,
  'pricePerMTokInput' | 'pricePerMTokOutput' | 'pricePerMTokCacheRead' | 'pricePerMTokCacheWrite'
>

/**
 * A request's price in US dollars from the catalog: uncached input at the input price, input read
 * from the prompt cache and written to it at their own prices (the input price where none is
 * listed), output at the output price. null where the model's prices are unknown (local, custom).
 */
export function usageCostUsd(spec: Prices, usage: ReportedUsage): number | null {
  const input = spec.pricePerMTokInput
  const output = spec.pricePerMTokOutput
  if (input === null || output === null) return null
  const read = usage.cacheReadTokens ?? 0
  const write = usage.cacheWriteTokens ?? 0
  const uncached = Math.max(0, usage.inputTokens - read - write)
  return (
    (uncached * input +
      read * (spec.pricePerMTokCacheRead ?? input) +
      write * (spec.pricePerMTokCacheWrite ?? input) +
      (usage.outputTokens ?? 0) * output) /
    1_000_000
  )
}
