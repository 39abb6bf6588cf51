import { APICallError, RetryError } from 'ai'
import type { MessageError } from '../../shared/domain/chat-message'
import { PROVIDER_LABELS, type ProviderId } from '../../shared/domain/provider'
import { contextOverflow, type ContextOverflow } from './context-overflow'
import { retryAfterMs } from './provider-timing'

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
      const waitMs = retryAfterMs(error.responseHeaders, context.now)
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
      /terminated|process successful response|ECONNRESET|socket/i.test(`${error.message} ${String(error.cause)}`)
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
      (/^Cannot connect to API/.test(error.message) ||
        (code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/.test(code)))
    ) {
      return {
        code: 'unreachable',
        message: `Cannot reach ${name} at ${new URL(error.url).origin}. Is the server running?`
      }
    }
    return {
      code: 'provider_error',
      message: `${name} answered with an error${status ? ` (${status})` : ''}: ${error.message}`
    }
  }
  const code = causeCode(error)
  if (code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH/.test(code)) {
    return { code: 'unreachable', message: `Cannot reach ${name}. Is the server running and the address right?` }
  }
  const message = error instanceof Error ? error.message : String(error)
  if (/terminated|socket|premature|ECONNRESET|aborted|stream/i.test(message + (code ?? ''))) {
    return {
      code: 'stream_broken',
      message: `The connection to ${name} broke while the reply was streaming. Try again.`
    }
  }
  return { code: 'provider_error', message: `${name} failed: ${message}` }
}
