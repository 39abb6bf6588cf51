import { attachmentTokens } from './attachment-tokens'
import type { ModelSpec } from '../models/catalog'
import { countTextTokens, countTextTokensAsync, SLICED_MIN, type EncodingName } from './encoders'
import { charsOver4WireTokens, ESTIMATE_FACTORS, estimateFamilyOf, estimateWireTokens } from './estimate'
import { countWireMessage, REPLY_PRIMING_TOKENS } from './openai-count'
import { toChatWireMessages, type CountableMessage } from './render'

export type { CountableMessage } from './render'

/**
 * Which method produced a count; stored beside it (chat_messages.token_counter). 'tiktoken:<encoding>'
 * names OpenAI's encoding, not the library: gpt-tokenizer gives identical counts (encoders.ts).
 */
export type CounterName = `tiktoken:${EncodingName}` | `estimate:${string}` | `api:${string}` | 'chars/4'

export interface MessageCount {
  tokens: number
  counter: CounterName
  /** Set when the intended counter failed and chars/4 was used instead (log it: FR-5.2.1). */
  error?: string
}

function tiktokenEncoding(spec: ModelSpec): EncodingName | undefined {
  return spec.tokenizer === 'o200k_base' || spec.tokenizer === 'cl100k_base' ? spec.tokenizer : undefined
}

/** The local counter a spec uses (remote endpoints are the facade's business). */
export function localCounterFor(spec: ModelSpec): CounterName {
  const enc = tiktokenEncoding(spec)
  return enc ? `tiktoken:${enc}` : `estimate:${estimateFamilyOf(spec.tokenizer)}`
}

/** Exact counters need no safety margin: tiktoken for OpenAI, the provider's own endpoint. */
export function isExactCounter(counter: string): boolean {
  return counter.startsWith('tiktoken:') || counter.startsWith('api:')
}

/**
 * One message's tokens including its chat framing, so that a request's total is
 * requestOverhead(spec) + the sum of its messages' counts. Never throws: if tiktoken fails the
 * count falls back to chars/4 and says so.
 */
export function countMessage(message: CountableMessage, spec: ModelSpec): MessageCount {
  const wire = toChatWireMessages(message)
  const counter = localCounterFor(spec)
  const files = attachmentTokens(message.parts, spec)
  try {
    const enc = tiktokenEncoding(spec)
    if (enc)
      return {
        tokens: wire.reduce((s, m) => s + countWireMessage(m, (t) => countTextTokens(t, enc)), 0) + files,
        counter
      }
    return { tokens: estimateWireTokens(wire, estimateFamilyOf(spec.tokenizer)) + files, counter }
  } catch (err) {
    return { tokens: charsOver4WireTokens(wire) + files, counter: 'chars/4', error: String(err) }
  }
}

/**
 * countMessage for a message of any size without holding the event loop: its long texts are
 * counted first in slices (and remembered), so the synchronous count that follows only adds up.
 */
export async function countMessageAsync(message: CountableMessage, spec: ModelSpec): Promise<MessageCount> {
  const encoding = tiktokenEncoding(spec) ?? ESTIMATE_FACTORS[estimateFamilyOf(spec.tokenizer)].encoding
  for (const m of toChatWireMessages(message)) {
    const texts = [...m.content, ...(m.toolCalls ?? []).map((c) => c.arguments)]
    for (const text of texts) if (text.length >= SLICED_MIN) await countTextTokensAsync(text, encoding).catch(() => 0)
  }
  return countMessage(message, spec)
}

/** Tokens a request costs beyond its messages: the reply priming, scaled like the estimate. */
export function requestOverhead(spec: ModelSpec): number {
  if (tiktokenEncoding(spec)) return REPLY_PRIMING_TOKENS
  return Math.ceil(REPLY_PRIMING_TOKENS * ESTIMATE_FACTORS[estimateFamilyOf(spec.tokenizer)].factor)
}
