import { countTextTokens, type EncodingName } from './encoders'
import type { ChatWireMessage } from './render'

// OpenAI cookbook, "How to count tokens with tiktoken", num_tokens_from_messages for
// gpt-3.5-turbo-0613 / gpt-4-0613 and later (gpt-4o, 4.1, 5, o-series use the same framing):
// every message is wrapped as <|start|>{role/name}\n{content}<|end|>\n, and the reply is primed
// with <|start|>assistant<|message|>.
export const TOKENS_PER_MESSAGE = 3
export const TOKENS_PER_NAME = 1
export const REPLY_PRIMING_TOKENS = 3

/**
 * Per tool call, on top of its name and JSON arguments. OpenAI does not publish how tool calls are
 * rendered for the model (something like `to=functions.NAME ... json`); 7 tokens covers that
 * framing in the measurements people have published. An approximation: the meter stays within a
 * few tokens per call, and provider-reported usage shows the true total.
 */
export const TOOL_CALL_OVERHEAD = 7

export type TextCounter = (text: string) => number

/** Which tiktoken encoding a model id uses, for OpenAI models not in the catalog. */
export function encodingForModel(modelId: string): EncodingName | undefined {
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d)/.test(modelId)) return 'o200k_base'
  if (/^(gpt-4|gpt-3\.5|gpt-35)/.test(modelId)) return 'cl100k_base'
  return undefined
}

/** One wire message including its framing; the reply priming is not part of any message. */
export function countWireMessage(m: ChatWireMessage, count: TextCounter): number {
  let n = TOKENS_PER_MESSAGE + count(m.role)
  for (const piece of m.content) n += count(piece)
  if (m.name !== undefined) n += TOKENS_PER_NAME + count(m.name)
  for (const call of m.toolCalls ?? []) n += TOOL_CALL_OVERHEAD + count(call.name) + count(call.arguments)
  return n
}

/** A whole chat-completions request the way the API reports prompt_tokens (without tool definitions). */
export function countChatRequest(messages: readonly ChatWireMessage[], encoding: EncodingName): number {
  const count: TextCounter = (t) => countTextTokens(t, encoding)
  return messages.reduce((sum, m) => sum + countWireMessage(m, count), REPLY_PRIMING_TOKENS)
}
