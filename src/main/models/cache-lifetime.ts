import type { ProviderId } from '../../shared/domain/provider'

const MINUTE = 60_000

/**
 * How long a provider keeps a chat's prompt cache after its last request (what a request that comes
 * later pays in full): Anthropic's breakpoints live 5 minutes; OpenAI keeps a prefix 5–10 minutes
 * in memory, or 24 hours when asked for a model that offers it; Gemini's implicit cache is short
 * too. A local server keeps the last prompt it processed until another one replaces it, however
 * long the pause: no lifetime (Infinity).
 */
export function cacheLifetimeMs(provider: ProviderId, extendedRetention: boolean): number {
  if (provider === 'openai-compatible') return Number.POSITIVE_INFINITY
  if (provider === 'openai' && extendedRetention) return 24 * 60 * MINUTE
  return 5 * MINUTE
}
