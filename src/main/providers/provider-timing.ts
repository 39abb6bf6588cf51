import type { ProviderId } from '../../shared/domain/provider'

/** Abort a stream when the provider sends nothing for this long once it has started. */
export const DEFAULT_STALL_MS = 60_000

/**
 * How long to wait for the first chunk: a local server may read a long prompt for minutes before
 * it says anything, and a summary prompt is longer than a chat turn.
 */
export function firstChunkTimeoutMs(provider: ProviderId, purpose: 'reply' | 'summary'): number {
  const local = provider === 'openai-compatible'
  if (purpose === 'summary') return local ? 600_000 : 180_000
  return local ? 300_000 : 120_000
}

/**
 * The wait a provider asked for (`retry-after-ms`, or `retry-after` in seconds or as an HTTP date
 * measured against `now`), in milliseconds; undefined when it asked for none.
 */
export function retryAfterMs(headers: Record<string, string | undefined> | undefined, now: number): number | undefined {
  const ms = headers?.['retry-after-ms']
  if (ms !== undefined && ms !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers?.['retry-after']
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
