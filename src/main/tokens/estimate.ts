import type { Tokenizer } from '../models/catalog'
import { countTextTokens, type EncodingName } from './encoders'
import { countWireMessage, type TextCounter } from './openai-count'
import type { ChatWireMessage } from './render'

export type EstimateFamily = 'anthropic' | 'gemini' | 'generic'

/**
 * Local estimates for models whose tokenizer we do not have, as a tiktoken count times a factor.
 * All use cl100k_base (the cheaper encoder to load). The factors lean high on purpose: an
 * overestimate compresses a little early, an underestimate overflows the context.
 * - anthropic 1.20: Claude's tokenizer yields ~10–20% more tokens than cl100k on English prose
 *   and more on code; take the top of that range.
 * - gemini 1.00: Gemini's 256k SentencePiece vocabulary is at least as efficient as cl100k on
 *   English (~4 characters per token, per Google's docs), so cl100k is already conservative.
 * - generic 1.10: OpenAI-compatible servers (Llama, Qwen, Mistral…) have 32k–150k vocabularies;
 *   the smaller ones need ~10% more tokens than cl100k.
 * Calibration against reported usage (calibration.ts) corrects the remainder per model.
 */
export const ESTIMATE_FACTORS: Record<EstimateFamily, { encoding: EncodingName; factor: number }> = {
  anthropic: { encoding: 'cl100k_base', factor: 1.2 },
  gemini: { encoding: 'cl100k_base', factor: 1.0 },
  generic: { encoding: 'cl100k_base', factor: 1.1 }
}

export function estimateFamilyOf(tokenizer: Tokenizer): EstimateFamily {
  return tokenizer === 'anthropic' ? 'anthropic' : tokenizer === 'gemini' ? 'gemini' : 'generic'
}

/**
 * The last resort (FR-5.2.1: "character count / 4"). Counts UTF-8 bytes / 4, which equals
 * characters / 4 for English and stays conservative for CJK text, where a character is closer
 * to one token than to a quarter.
 */
export const charsOver4: TextCounter = (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4)

/** Wire messages (with chat framing) scaled by the family factor; rounds up. Throws if tiktoken fails. */
export function estimateWireTokens(wire: readonly ChatWireMessage[], family: EstimateFamily): number {
  const { encoding, factor } = ESTIMATE_FACTORS[family]
  const count: TextCounter = (t) => countTextTokens(t, encoding)
  return Math.ceil(factor * wire.reduce((sum, m) => sum + countWireMessage(m, count), 0))
}

export function charsOver4WireTokens(wire: readonly ChatWireMessage[]): number {
  return wire.reduce((sum, m) => sum + countWireMessage(m, charsOver4), 0)
}
