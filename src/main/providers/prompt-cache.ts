import type { ModelMessage, SystemModelMessage } from 'ai'
import type { ProviderId } from '../../shared/domain/provider'

type ProviderOptions = NonNullable<SystemModelMessage['providerOptions']>

export interface CacheableRequest {
  system?: string
  messages: ModelMessage[]
  /** How many of `messages` the next request repeats (summary, pinned block, retained history). */
  stableMessages: number
  /** The pending message's last part is the recalled passages (this turn's only). */
  recalled?: boolean
  /** The summary message and where the parts appended to earlier summaries begin in it. */
  summarySplits?: { index: number; at: readonly number[] }
}

export interface PromptCacheOptions {
  provider: ProviderId
  /** The per-provider switch in Settings: off for a server that refuses the fields. */
  enabled: boolean
  /** One cache per chat: OpenAI routes requests with the same key to the same cache. */
  sessionId: string
  /** The model keeps a cache for 24 hours instead of minutes (OpenAI's extended retention). */
  extendedRetention?: boolean
}

export interface CachedRequest {
  system?: string | SystemModelMessage
  messages: ModelMessage[]
  providerOptions?: ProviderOptions
}

/** Anthropic caches only up to a block marked with this; it allows four marks per request. */
const BREAKPOINT: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } }

/** Marks the last content part of a message (a string becomes one text part). */
function markLastPart(message: ModelMessage, upto?: number): ModelMessage {
  if (message.role === 'system') return { ...message, providerOptions: BREAKPOINT }
  if (typeof message.content === 'string') {
    if (message.role !== 'user' && message.role !== 'assistant') return message
    return {
      ...message,
      content: [{ type: 'text', text: message.content, providerOptions: BREAKPOINT }]
    } as ModelMessage
  }
  const parts = [...message.content] as Array<(typeof message.content)[number]>
  const at = (upto ?? parts.length) - 1
  if (at < 0) return message
  parts[at] = { ...parts[at]!, providerOptions: BREAKPOINT } as (typeof parts)[number]
  return { ...message, content: parts } as ModelMessage
}

/**
 * Anthropic caches nothing unless asked: a breakpoint at the end of the system part (system prompt,
 * summary, pinned block: reused by every turn until the next compression), one on the last message
 * of the retained history, and one on the pending message's own text (not on the recalled passages
 * after it, which the next request does not repeat). The next request finds the previous one's
 * entries among the block boundaries it looks back over, so each turn reads everything before its
 * last exchange from the cache and writes only that exchange.
 */
function anthropicBreakpoints(request: CacheableRequest): CachedRequest {
  const { messages, stableMessages, summaryEnd } = splitSummary(request)
  const leadingSystem = messages.findIndex((m) => m.role !== 'system')
  const systemEnd = (leadingSystem < 0 ? messages.length : leadingSystem) - 1
  let system: CachedRequest['system'] = request.system
  if (systemEnd >= 0) messages[systemEnd] = markLastPart(messages[systemEnd]!)
  else if (request.system) system = { role: 'system', content: request.system, providerOptions: BREAKPOINT }
  // The pinned block after the summary: the summary's own end is a mark too, so the request after the
  // next compression (which appends to the summary) still finds it.
  if (summaryEnd !== undefined && summaryEnd < systemEnd) messages[summaryEnd] = markLastPart(messages[summaryEnd]!)
  const lastStable = stableMessages - 1
  if (lastStable > systemEnd) messages[lastStable] = markLastPart(messages[lastStable]!)
  // The pending message's own parts: a recalled block, when there is one, is its last part.
  const pending = messages.findLastIndex((m, i) => i >= stableMessages && m.role === 'user')
  const message = pending >= 0 ? messages[pending] : undefined
  if (message && message.role === 'user') {
    const own = typeof message.content === 'string' ? 1 : message.content.length - (request.recalled ? 1 : 0)
    if (own > 0) messages[pending] = markLastPart(message, typeof message.content === 'string' ? undefined : own)
  }
  return { ...(system !== undefined ? { system } : {}), messages }
}

/**
 * The summary as one system block per part: a summary that grew by appending keeps each earlier
 * version as the start of its text, and a block boundary where each ended is what lets Anthropic
 * find the cache an earlier request wrote (its cache is keyed by whole blocks).
 */
function splitSummary(request: CacheableRequest): {
  messages: ModelMessage[]
  stableMessages: number
  summaryEnd?: number
} {
  const split = request.summarySplits
  const summary = split ? request.messages[split.index] : undefined
  if (!split || !summary || summary.role !== 'system')
    return { messages: [...request.messages], stableMessages: request.stableMessages }
  const text = summary.content
  const bounds = [0, ...split.at, text.length]
  const pieces: ModelMessage[] = bounds
    .slice(1)
    .map((end, i) => ({ role: 'system' as const, content: text.slice(bounds[i], end) }))
    .filter((m) => m.content.length > 0)
  const messages = [...request.messages.slice(0, split.index), ...pieces, ...request.messages.slice(split.index + 1)]
  return {
    messages,
    stableMessages: request.stableMessages + pieces.length - 1,
    summaryEnd: split.index + pieces.length - 1
  }
}

/**
 * The request as sent to a provider's prompt cache. The layout is what makes a cache work (the
 * stable part first, what changes at the end); this adds what each provider needs on top: Anthropic
 * breakpoints, OpenAI's per-chat cache key (and its 24-hour retention where the model has it).
 * Gemini and OpenAI-compatible servers (llama.cpp, vLLM, LM Studio, Ollama) cache a repeated prefix
 * on their own and get nothing extra.
 */
export function withPromptCache(request: CacheableRequest, options: PromptCacheOptions): CachedRequest {
  const plain: CachedRequest = {
    ...(request.system !== undefined ? { system: request.system } : {}),
    messages: request.messages
  }
  if (!options.enabled) return plain
  if (options.provider === 'anthropic') return anthropicBreakpoints(request)
  if (options.provider === 'openai') {
    return {
      ...plain,
      providerOptions: {
        openai: {
          promptCacheKey: `distill-${options.sessionId}`,
          ...(options.extendedRetention ? { promptCacheRetention: '24h' } : {})
        }
      }
    }
  }
  return plain
}
