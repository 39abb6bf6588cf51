import { APICallError, streamText, type LanguageModel, type ModelMessage, type SystemModelMessage } from 'ai'
import { retryAfterMs } from './provider-timing'
import { logSdkWarningsOnce } from './sdk-warnings'

/** Milliseconds of a reply's stream handled before the event loop gets a turn. */
const YIELD_EVERY_MS = 8

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number
  /** First backoff; doubled each attempt (ADR 0005). */
  baseDelayMs: number
  /** A provider's retry-after longer than this is not waited for: the error is shown instead. */
  maxDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 1000, maxDelayMs: 60_000 }

export interface StreamReplyOptions {
  model: LanguageModel
  system?: string | SystemModelMessage
  messages: ModelMessage[]
  /** Request-level provider options (OpenAI's prompt cache key and retention). */
  providerOptions?: SystemModelMessage['providerOptions']
  /** The user's Stop. */
  signal: AbortSignal
  /** Abort an attempt when no chunk arrives for this long (a stalled server). */
  stallMs: number
  /**
   * Before the first chunk the wait may be longer: a local model reads a long prompt for minutes
   * before it says anything. Defaults to stallMs.
   */
  firstChunkMs?: number
  maxOutputTokens?: number
  retry?: RetryPolicy
  onDelta(text: string): void
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void
  /** The injected clock, for retry-after given as a date. */
  now(): number
}

/** Input tokens as the provider reported them: read from its prompt cache, written to it. */
export interface CacheUsage {
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

export type StreamReplyResult =
  | ({ outcome: 'complete'; text: string; inputTokens?: number; outputTokens?: number } & CacheUsage)
  | { outcome: 'aborted'; text: string }
  | { outcome: 'error'; text: string; error: unknown; stalled: boolean }

type Attempt = StreamReplyResult & { retryable: boolean }

function isRetryable(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable
  return false
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true }
    )
  })
}

async function attempt(options: StreamReplyOptions): Promise<Attempt> {
  const stall = new AbortController()
  let stalled = false
  let timer: NodeJS.Timeout | undefined
  let started = false
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(
      () => {
        stalled = true
        stall.abort(new DOMException('The provider stopped sending', 'TimeoutError'))
      },
      started ? options.stallMs : (options.firstChunkMs ?? options.stallMs)
    )
  }
  const signal = AbortSignal.any([options.signal, stall.signal])
  let text = ''
  let failure: unknown
  let usage: { inputTokens?: number; outputTokens?: number } & CacheUsage = {}
  arm()
  try {
    const result = streamText({
      model: options.model,
      system: options.system,
      messages: options.messages,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      // The summary and recalled passages are system messages by design (FR-1.5.1): they are
      // Distill's own text, not the user's, so the SDK's warning about them would only fill the log.
      allowSystemInMessages: true,
      abortSignal: signal,
      // Retries are ours: backoff and retry-after under our control, and never after text arrived.
      maxRetries: 0,
      maxOutputTokens: options.maxOutputTokens,
      // HTTP errors arrive as stream parts below; this keeps them out of the console.
      onError: () => {}
    })
    let slice = performance.now()
    for await (const part of result.fullStream) {
      // A burst of thousands of parts (a fast server, a reply that arrived whole) is parsed and
      // checked part by part in one go: the event loop gets a turn every few milliseconds of it.
      if (performance.now() - slice > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        slice = performance.now()
      }
      // The SDK's own bookkeeping parts come before the provider has sent anything.
      if (part.type !== 'start' && part.type !== 'start-step') started = true
      arm()
      if (part.type === 'text-delta') {
        text += part.text
        options.onDelta(part.text)
      } else if (part.type === 'error') {
        failure = part.error
      } else if (part.type === 'finish') {
        const { inputTokens, outputTokens, inputTokenDetails } = part.totalUsage
        usage = {
          inputTokens,
          outputTokens,
          ...(inputTokenDetails?.cacheReadTokens !== undefined
            ? { cacheReadTokens: inputTokenDetails.cacheReadTokens }
            : {}),
          ...(inputTokenDetails?.cacheWriteTokens !== undefined
            ? { cacheWriteTokens: inputTokenDetails.cacheWriteTokens }
            : {})
        }
      }
    }
  } catch (err) {
    // A connection cut mid-body makes the iterator throw instead of yielding an error part.
    failure = err
  } finally {
    clearTimeout(timer)
  }
  if (options.signal.aborted) return { outcome: 'aborted', text, retryable: false }
  if (stalled)
    return { outcome: 'error', text, error: failure ?? new Error('stalled'), stalled: true, retryable: false }
  if (failure !== undefined) {
    return { outcome: 'error', text, error: failure, stalled: false, retryable: text === '' && isRetryable(failure) }
  }
  return { outcome: 'complete', text, ...usage, retryable: false }
}

/**
 * Streams one reply. streamText reports failures through the stream rather than by throwing, so
 * each attempt walks the full stream and reports how it ended, with the text that arrived.
 * Retryable failures (429, 5xx, connection errors) before any text are retried with exponential
 * backoff, honouring the provider's retry-after.
 */
export async function streamReply(options: StreamReplyOptions): Promise<StreamReplyResult> {
  // Every model call goes through here: the SDK's repeated warnings are logged once each.
  if (globalThis.AI_SDK_LOG_WARNINGS === undefined) logSdkWarningsOnce()
  const policy = options.retry ?? DEFAULT_RETRY
  for (let n = 0; ; n++) {
    const { retryable, ...result } = await attempt(options)
    if (!retryable || n >= policy.retries || result.outcome !== 'error') return result
    const hinted = APICallError.isInstance(result.error)
      ? retryAfterMs(result.error.responseHeaders, options.now())
      : undefined
    if (hinted !== undefined && hinted > policy.maxDelayMs) return result
    const delayMs = hinted ?? policy.baseDelayMs * 2 ** n
    options.onRetry?.({ attempt: n + 1, delayMs, error: result.error })
    await sleep(delayMs, options.signal)
    if (options.signal.aborted) return { outcome: 'aborted', text: '' }
  }
}
