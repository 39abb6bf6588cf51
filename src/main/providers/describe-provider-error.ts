import { APICallError, RetryError } from 'ai'
import type { MessageError } from '../../shared/domain/chat-message'
import { PROVIDER_LABELS, type ProviderId } from '../../shared/domain/provider'
import { contextOverflow, startOf, type ContextOverflow } from './context-overflow'
import { retryAfterMs } from './provider-timing'

/**
 * A provider's error message, cause and headers are untrusted input of any size: each is read only
 * up to these lengths, and a message quoted to the user is cut to a readable length.
 */
const SCANNED_CHARS = 4_096
const QUOTED_CHARS = 500
/** Longer than any `retry-after` value (an HTTP date is 29 characters): not one. */
const HEADER_CHARS = 64
/** A wait longer than a day is not one a chat waits for: not passed on. */
const MAX_RETRY_AFTER_MS = 86_400_000

const quoted = (text: string) => (text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text)

/** What a provider asked to wait, read from short header values only, and only when sane. */
function retryAfter(headers: Record<string, string | undefined> | undefined, now: number): number | undefined {
  const short = (name: string) => {
    const value = headers?.[name]
    return typeof value === 'string' && value.length <= HEADER_CHARS ? value : undefined
  }
  const ms = retryAfterMs({ 'retry-after-ms': short('retry-after-ms'), 'retry-after': short('retry-after') }, now)
  return ms !== undefined && Number.isFinite(ms) && ms <= MAX_RETRY_AFTER_MS ? ms : undefined
}

const originOf = (url: string) => {
  try {
    return ` at ${new URL(url).origin}`
  } catch {
    return ''
  }
}

export type ProviderErrorCode =
  | 'invalid_key'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'stream_broken'
  | 'unreachable'
  | 'model_not_found'
  | 'not_configured'
  | 'context_overflow'
  | 'provider_error'

export interface ProviderErrorInfo extends MessageError {
  code: ProviderErrorCode
  retryAfterSeconds?: number
}

function causeCode(err: unknown): string | undefined {
  let current: unknown = err
  for (let i = 0; i < 5 && current; i++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const n = (x: number) => x.toLocaleString('en-US')

/** A refusal of a request longer than the window, with the numbers the provider gave. */
function overflowMessage(name: string, { inputTokens, maxInput, window }: ContextOverflow): string {
  const counts =
    inputTokens === undefined
      ? ''
      : maxInput !== undefined && maxInput > 0
        ? ` (it counts ${n(inputTokens)} tokens where ${n(maxInput)} fit)`
        : window !== undefined
          ? ` (it counts ${n(inputTokens)} tokens; its window is ${n(window)})`
          : ` (it counts ${n(inputTokens)} tokens)`
  return (
    `${name} found the request longer than the model's window${counts}. Try again: where Distill estimates ` +
    'tokens it now counts as this server does. If it is refused again, summarize the chat or set the window ' +
    'the server really runs in Settings → Models.'
  )
}

/** Turns whatever a provider call threw into plain words for the failed message. */
export function describeProviderError(
  err: unknown,
  provider: ProviderId,
  context: { stalled?: boolean; now: number }
): ProviderErrorInfo {
  const name = PROVIDER_LABELS[provider]
  const error = RetryError.isInstance(err) ? err.lastError : err
  if (context.stalled || (error instanceof DOMException && error.name === 'TimeoutError')) {
    return { code: 'timeout', message: `${name} stopped answering, so the request timed out. Try again.` }
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode
    if (status === 401 || status === 403) {
      return { code: 'invalid_key', message: `${name} refused the API key (${status}). Check the key in Settings.` }
    }
    if (status === 429) {
      const waitMs = retryAfter(error.responseHeaders, context.now)
      const wait = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000)
      return {
        code: 'rate_limited',
        message: `${name} is limiting requests (429).${wait !== undefined ? ` Try again in ${wait} s.` : ' Try again shortly.'}`,
        ...(wait !== undefined ? { retryAfterSeconds: wait } : {})
      }
    }
    if (status === 404) {
      return { code: 'model_not_found', message: `${name} does not know this model (404). Pick another model.` }
    }
    // The body of a successful response broke off (socket closed mid-stream).
    if (
      (status === undefined || status < 300) &&
      /terminated|process successful response|ECONNRESET|socket/i.test(
        `${startOf(error.message, SCANNED_CHARS)} ${startOf(String(error.cause), SCANNED_CHARS)}`
      )
    ) {
      return {
        code: 'stream_broken',
        message: `The connection to ${name} broke while the reply was streaming. Try again.`
      }
    }
    const overflow = contextOverflow(error)
    if (overflow) return { code: 'context_overflow', message: overflowMessage(name, overflow) }
    if (status !== undefined && status >= 500) {
      return { code: 'server_error', message: `${name} had a server error (${status}). Try again.` }
    }
    const code = causeCode(error.cause)
    if (
      status === undefined &&
      (startOf(error.message, SCANNED_CHARS).startsWith('Cannot connect to API') ||
        (code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/.test(code)))
    ) {
      return {
        code: 'unreachable',
        message: `Cannot reach ${name}${originOf(error.url)}. Is the server running?`
      }
    }
    return {
      code: 'provider_error',
      message: `${name} answered with an error${status ? ` (${status})` : ''}: ${quoted(startOf(error.message, SCANNED_CHARS))}`
    }
  }
  const code = causeCode(error)
  if (code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/.test(code)) {
    return { code: 'unreachable', message: `Cannot reach ${name}. Is the server running and the address right?` }
  }
  const message = startOf(error instanceof Error ? error.message : String(error), SCANNED_CHARS)
  if (/terminated|socket|premature|ECONNRESET|aborted|stream/i.test(message + (code ?? '').slice(0, 200))) {
    return {
      code: 'stream_broken',
      message: `The connection to ${name} broke while the reply was streaming. Try again.`
    }
  }
  return { code: 'provider_error', message: `${name} failed: ${quoted(message)}` }
}
