import type { MessagePart, MessageRole } from '../../shared/domain/chat-message'

/** What counting needs from a message; ChatMessage satisfies it. */
export interface CountableMessage {
  role: MessageRole
  parts: readonly MessagePart[]
  name?: string
}

/**
 * A message as OpenAI chat completions receives it, reduced to what is tokenized. `content` holds
 * the text pieces (a string content is one piece; array content is one piece per part).
 */
export interface ChatWireMessage {
  role: string
  content: readonly string[]
  name?: string
  toolCalls?: readonly { name: string; arguments: string }[]
}

type Part<T extends MessagePart['type']> = Extract<MessagePart, { type: T }>

/** Attachments are counted by metadata only (FR-1.1.3); this is the line sent in their place. */
export function attachmentLine(p: Part<'attachment'>): string {
  return `[attachment: ${p.filename}, ${p.mediaType}, ${p.size} bytes]`
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value) // cycles or BigInt: never let counting throw
  }
}

/** Tool arguments as the AI SDK sends them: a JSON string stays as is, anything else is stringified. */
export function toolArgumentsText(input: unknown): string {
  return typeof input === 'string' ? input : stringify(input ?? {})
}

/** Tool output as the AI SDK sends it: {type:'text'|'error-text'} → value, {type:'json'|…} → JSON. */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output
  if (output && typeof output === 'object' && 'type' in output && 'value' in output) {
    const { type, value } = output as { type: unknown; value: unknown }
    if ((type === 'text' || type === 'error-text') && typeof value === 'string') return value
    if (type === 'json' || type === 'error-json' || type === 'content') return stringify(value)
  }
  return stringify(output)
}

/**
 * The wire messages one stored message becomes, mirroring @ai-sdk/openai's chat conversion: an
 * assistant's text parts are concatenated into one string, each tool result is its own 'tool'
 * message, tool calls ride on the message as tool_calls.
 */
export function toChatWireMessages(msg: CountableMessage): ChatWireMessage[] {
  const pieces: string[] = []
  const results: ChatWireMessage[] = []
  const toolCalls: { name: string; arguments: string }[] = []
  let assistantText: string | undefined
  for (const p of msg.parts) {
    if (p.type === 'text') {
      if (msg.role === 'assistant') assistantText = (assistantText ?? '') + p.text
      else pieces.push(p.text)
    } else if (p.type === 'attachment') {
      // A stored file is sent as itself, counted by attachmentTokens; only a name without bytes is a line.
      if (!p.hash) pieces.push(attachmentLine(p))
    } else if (p.type === 'tool-call') toolCalls.push({ name: p.toolName, arguments: toolArgumentsText(p.input) })
    else if (msg.role === 'tool') results.push({ role: 'tool', content: [toolOutputText(p.output)] })
    else pieces.push(toolOutputText(p.output))
  }
  if (assistantText !== undefined) pieces.unshift(assistantText)
  if (results.length > 0 && pieces.length === 0 && toolCalls.length === 0 && msg.name === undefined) return results
  const head: ChatWireMessage = { role: msg.role, content: pieces }
  if (msg.name !== undefined) head.name = msg.name
  if (toolCalls.length > 0) head.toolCalls = toolCalls
  return [head, ...results]
}

/** One flat text for counters without a chat format (remote endpoints, chars/4). */
export function plainText(msg: CountableMessage): string {
  return toChatWireMessages(msg)
    .flatMap((w) => [...w.content, ...(w.toolCalls ?? []).map((c) => `[tool call ${c.name}] ${c.arguments}`)])
    .join('\n')
}
