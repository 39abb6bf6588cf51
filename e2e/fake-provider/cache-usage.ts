import { anthropicCacheUsage, type CacheBlock } from './anthropic-cache'
import { FIVE_MINUTES, implicitCachedTokens, ONE_HOUR as HOUR, type PromptCache, type Segment } from './prompt-cache'
import { asRecord } from './reply'
import { type ChatMessage, type ProviderName } from './types'

/** Cached parts of one request's input, in reported tokens; `write1h` is part of `write`. */
export interface CacheUsage {
  read: number
  write: number
  write1h: number
  breakpoints: number
}

/**
 * A prompt as implicit-cache segments: the tools first (they open the real prompt, so other tools
 * share nothing), then each message, whose role and attachments must match before its text can.
 */
export function implicitSegments(messages: ChatMessage[], tools: unknown): Segment[] {
  return [
    { meta: `tools:${JSON.stringify(tools ?? null)}`, text: '', tokens: 3 },
    ...messages.map((m) => ({
      meta: [m.role, ...(m.attachments ?? []).map((a) => a.sha256 || a.url || '')].join('\u0001'),
      text: m.text,
      tokens: Math.ceil(m.text.length / 4) + 3
    }))
  ]
}

/** prompt_cache_retention: '24h' (and the newer prompt_cache_options.ttl) extend OpenAI's 5 minutes. */
function openaiLifetime(body: Record<string, unknown>): number {
  if (body.prompt_cache_retention === '24h') return 24 * HOUR
  const ttl = asRecord(body.prompt_cache_options).ttl
  if (ttl === '12h') return 12 * HOUR
  if (ttl === '30m') return HOUR / 2
  return FIVE_MINUTES
}

export interface CacheRequest {
  /** null: a server without caching. */
  cache: PromptCache | null
  provider: ProviderName
  model: string
  body: Record<string, unknown>
  messages: ChatMessage[]
  /** Anthropic only: the request's block boundaries (anthropicCacheBlocks). */
  blocks: CacheBlock[]
  /** The reported input total; the cached parts never pass it. */
  total: number
  /** Estimate units to reported tokens (the usage factor). */
  scale: (tokens: number) => number
}

/** Looks the request up in the cache and stores what the provider would store. */
export function cacheUsage(r: CacheRequest): CacheUsage {
  const breakpoints = r.blocks.filter((b) => b.ttlMs !== undefined).length
  let usage = { read: 0, write: 0, write1h: 0 }
  if (r.cache && r.provider === 'anthropic') {
    usage = anthropicCacheUsage(r.blocks, r.cache, `anthropic\u0000${r.model}`, r.scale)
  } else if (r.cache) {
    const openai = r.provider !== 'gemini'
    // A request without prompt_cache_key only meets other requests without one.
    const key = openai ? JSON.stringify(r.body.prompt_cache_key ?? null) : ''
    const prefix = r.cache.matchAndStore(
      `${r.provider}\u0000${r.model}\u0000${key}`,
      implicitSegments(r.messages, r.body.tools),
      openai ? openaiLifetime(r.body) : FIVE_MINUTES
    )
    usage.read = implicitCachedTokens(openai ? 'openai' : 'gemini', Math.min(r.total, r.scale(prefix)))
  }
  const read = Math.min(usage.read, r.total)
  const write = Math.min(usage.write, r.total - read)
  return { read, write, write1h: Math.min(usage.write1h, write), breakpoints }
}
