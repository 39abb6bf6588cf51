import { attachmentOf } from './attachments'
import { type ChatMessage } from './types'

/**
 * Flattens any provider's content shape (string, parts array, Gemini `parts`, Responses items)
 * to plain text, leaving out images and files. Other non-text parts count as their JSON so the token estimate stays deterministic.
 */
export function textOf(value: unknown): string {
  if (value == null) return ''
  if (typeof value === 'string') return value
  // Images and files are recorded as attachments, not text.
  if (Array.isArray(value))
    return value
      .filter((v) => attachmentOf(v) === null)
      .map(textOf)
      .filter((t) => t.length > 0)
      .join('\n')
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    if (typeof o.text === 'string') return o.text
    if ('content' in o) return textOf(o.content)
    if ('parts' in o) return textOf(o.parts)
    return JSON.stringify(o)
  }
  return String(value)
}

/**
 * Token ESTIMATE, not a real tokenizer: 3 + Σ (ceil(chars/4) + 3) over messages.
 * Shaped like OpenAI's per-message overhead so numbers look plausible and never change between runs.
 */
export function estimateInputTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + Math.ceil(m.text.length / 4) + 3, 3)
}

export function estimateOutputTokens(reply: string): number {
  return Math.ceil(reply.length / 4)
}

export function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') return messages[i]?.text ?? ''
  }
  return ''
}

export function defaultReply(messages: ChatMessage[]): string {
  return `Reply to: ${lastUserText(messages).slice(0, 200)}`
}

/** Word-ish chunks (word plus trailing whitespace) so clients see many deltas. */
export function splitWords(text: string): string[] {
  const parts = text.match(/\s*\S+\s*/g)
  return parts && parts.length > 0 ? parts : [text]
}

/** Exactly `n` pieces (fewer only if the text is shorter than n), concatenating back to `text`. */
export function splitEvenly(text: string, n: number): string[] {
  const count = Math.max(1, Math.min(n, text.length))
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    out.push(text.slice(Math.floor((i * text.length) / count), Math.floor(((i + 1) * text.length) / count)))
  }
  return out
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value != null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
