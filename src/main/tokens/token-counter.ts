import { createHash } from 'node:crypto'
import { attachmentTokens } from './attachment-tokens'
import { modelKey, type ModelSpec } from '../models/catalog'
import type { Calibrator } from './calibration'
import { freeEncoders, SLICED_MIN } from './encoders'
import { charsOver4 } from './estimate'
import { LruCache } from './lru-cache'
import {
  countMessage as countLocal,
  countMessageAsync,
  isExactCounter,
  localCounterFor,
  requestOverhead,
  type CounterName
} from './message-tokens'
import { TOKENS_PER_MESSAGE } from './openai-count'
import {
  anthropicTextCounter,
  createBaselineCounter,
  geminiTextCounter,
  REMOTE_MESSAGE_FRAMING,
  type BaselineCounter,
  type FetchLike
} from './remote-count'
import { plainText, type CountableMessage } from './render'

export interface RemoteEndpoint {
  baseURL: string
  apiKey: string
}

export interface TokenCounterOptions {
  /** countTokens endpoints; a provider without one is always estimated locally. */
  remote?: { anthropic?: RemoteEndpoint; google?: RemoteEndpoint }
  fetch?: FetchLike
  /** Per remote call; default 5 s. */
  timeoutMs?: number
  cache?: { maxEntries?: number }
  /** When given, countRequest corrects estimated totals with it. */
  calibration?: Calibrator
  log?: { warn(message: string, extra?: unknown): void }
  now?: () => number
  /** After a remote failure, estimate locally for this long instead of waiting on timeouts again. */
  remoteCooldownMs?: number
  /** Parallel remote calls while counting a request with uncached messages. */
  remoteConcurrency?: number
}

export interface CountResult {
  tokens: number
  counter: CounterName
  exact: boolean
}

export interface RequestCount {
  /** Calibrated when the count is an estimate and a calibrator is configured. */
  tokens: number
  /** requestOverhead + the sum of message counts: what calibration observes against usage. */
  rawTokens: number
  exact: boolean
  counter: CounterName | 'mixed'
  messages: CountResult[]
}

export interface TokenCounter {
  countMessage(message: CountableMessage, spec: ModelSpec): Promise<CountResult>
  countRequest(messages: readonly CountableMessage[], spec: ModelSpec): Promise<RequestCount>
  /** Sync, local, uncached: a composer draft as one user message (framing included). */
  estimateText(text: string, spec: ModelSpec): number
  stats(): { hits: number; misses: number; size: number }
  /** Frees the wasm encoders (process-wide) and the cache; call at shutdown. */
  dispose(): void
}

/** Beyond this a live draft is estimated as chars/4: tokenizing 50k chars takes ~10 ms per keystroke. */
export const LIVE_EXACT_LIMIT = 50_000

export function createTokenCounter(opts: TokenCounterOptions = {}): TokenCounter {
  const cache = new LruCache<string, CountResult>(opts.cache?.maxEntries ?? 20_000)
  const baselines = new Map<string, BaselineCounter>()
  const coolUntil = new Map<string, number>()
  const now = opts.now ?? Date.now
  const cooldownMs = opts.remoteCooldownMs ?? 30_000
  let hits = 0
  let misses = 0

  // The key names the counter, so a model switch to another tokenizer misses and recounts.
  const keyOf = (counter: string, m: CountableMessage) =>
    createHash('sha1')
      .update(`${counter}\0${m.role}\0${m.name ?? ''}\0${JSON.stringify(m.parts)}`)
      .digest('base64')

  const cached = (key: string): CountResult | undefined => {
    const hit = cache.get(key)
    if (hit) hits++
    else misses++
    return hit
  }

  function remoteFor(spec: ModelSpec): { counter: CounterName; baseline: BaselineCounter } | undefined {
    const anthropic = spec.provider === 'anthropic' && spec.tokenizer === 'anthropic'
    const google = spec.provider === 'google' && spec.tokenizer === 'gemini'
    const endpoint = anthropic ? opts.remote?.anthropic : google ? opts.remote?.google : undefined
    if (!endpoint) return undefined
    const counter: CounterName = `api:${spec.provider}:${spec.id}`
    let baseline = baselines.get(counter)
    if (!baseline) {
      const o = { ...endpoint, model: spec.id, fetch: opts.fetch, timeoutMs: opts.timeoutMs }
      baseline = createBaselineCounter(anthropic ? anthropicTextCounter(o) : geminiTextCounter(o))
      baselines.set(counter, baseline)
    }
    return { counter, baseline }
  }

  function countLocally(message: CountableMessage, spec: ModelSpec): CountResult {
    const key = keyOf(localCounterFor(spec), message)
    const hit = cached(key)
    if (hit) return hit
    const r = countLocal(message, spec)
    const result: CountResult = { tokens: r.tokens, counter: r.counter, exact: isExactCounter(r.counter) }
    if (r.error)
      opts.log?.warn('token counting failed; using chars/4', r.error) // FR-5.2.1; not cached, retried
    else cache.set(key, result)
    return result
  }

  /** countLocally, with a long message's texts counted first in slices that keep the event loop free. */
  async function countLocallySliced(message: CountableMessage, spec: ModelSpec): Promise<CountResult> {
    if (message.parts.some((p) => p.type === 'text' && p.text.length >= SLICED_MIN)) {
      // Its long texts are counted in slices and remembered by the encoder, which is this count's
      // cache: a key for the cache above would serialize and hash up to a million characters.
      const r = await countMessageAsync(message, spec)
      if (r.error) opts.log?.warn('token counting failed; using chars/4', r.error)
      return { tokens: r.tokens, counter: r.counter, exact: isExactCounter(r.counter) }
    }
    if (message.parts.some((p) => p.type !== 'text')) await countMessageAsync(message, spec)
    return countLocally(message, spec)
  }

  async function countMessage(message: CountableMessage, spec: ModelSpec): Promise<CountResult> {
    const remote = remoteFor(spec)
    if (!remote) return countLocallySliced(message, spec)
    const key = keyOf(remote.counter, message)
    const hit = cached(key)
    if (hit) return hit
    if ((coolUntil.get(spec.provider) ?? 0) <= now()) {
      const r = await remote.baseline.count(plainText(message))
      if (r.ok) {
        const result: CountResult = {
          tokens: r.tokens + REMOTE_MESSAGE_FRAMING + attachmentTokens(message.parts, spec),
          counter: remote.counter,
          exact: true
        }
        cache.set(key, result)
        return result
      }
      opts.log?.warn(`${spec.provider} countTokens failed (${r.reason}); estimating locally`)
      coolUntil.set(spec.provider, now() + cooldownMs)
    }
    return countLocallySliced(message, spec)
  }

  async function countRequest(messages: readonly CountableMessage[], spec: ModelSpec): Promise<RequestCount> {
    const counts: CountResult[] = new Array(messages.length)
    if (!remoteFor(spec)) {
      for (const [i, m] of messages.entries()) counts[i] = await countLocallySliced(m, spec)
    } else {
      let next = 0
      const worker = async () => {
        for (let i = next++; i < messages.length; i = next++) counts[i] = await countMessage(messages[i]!, spec)
      }
      await Promise.all(Array.from({ length: Math.max(1, opts.remoteConcurrency ?? 4) }, worker))
    }
    const rawTokens = counts.reduce((s, c) => s + c.tokens, requestOverhead(spec))
    const exact = counts.every((c) => c.exact) && (counts.length > 0 || isExactCounter(localCounterFor(spec)))
    const counters = new Set(counts.map((c) => c.counter))
    const counter = counters.size === 0 ? localCounterFor(spec) : counters.size === 1 ? counts[0]!.counter : 'mixed'
    const tokens =
      exact || !opts.calibration ? rawTokens : opts.calibration.apply(modelKey(spec.provider, spec.id), rawTokens)
    return { tokens, rawTokens, exact, counter, messages: counts }
  }

  function estimateText(text: string, spec: ModelSpec): number {
    if (text.length > LIVE_EXACT_LIMIT) return TOKENS_PER_MESSAGE + 1 + charsOver4(text)
    return countLocal({ role: 'user', parts: [{ type: 'text', text }] }, spec).tokens
  }

  return {
    countMessage,
    countRequest,
    estimateText,
    stats: () => ({ hits, misses, size: cache.size }),
    dispose() {
      cache.clear()
      freeEncoders()
    }
  }
}
