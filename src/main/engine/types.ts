/**
 * The engine's view of a conversation: plain data in, plain data out. The compression service
 * maps stored rows to these shapes; nothing here touches a database, a clock or the network.
 */

export type EngineRole = 'system' | 'user' | 'assistant' | 'tool'

export interface EngineMessage {
  id: string
  seq: number
  role: EngineRole
  /** The text the model sees for this message (text parts, tool JSON, attachment lines). */
  text: string
  /** Stored token count, chat framing included. */
  tokens: number
  /** Tool calls this message makes, and tool results it carries: a call and its result stay together. */
  toolCallIds?: readonly string[]
  toolResultIds?: readonly string[]
  createdAt: number
  /** In a transcript that states its dates, the day this message belongs to (`withStatedDays`). */
  statedDay?: number
}

/** The tokens of messages together (stored counts, framing included). */
export function totalTokens(messages: readonly { tokens: number }[]): number {
  let total = 0
  for (const m of messages) total += m.tokens
  return total
}

/** The latest active summary of a chat (a snapshot of kind 'summary'). */
export interface ActiveSummary {
  id: string
  text: string
  tokens: number
  /** Everything up to and including this seq is represented by the summary. */
  cutoffSeq: number
  cutoffMessageId: string
  firstMessageId: string
  /** Messages represented, over all cascaded summaries. */
  messagesIncluded: number
  /** Tokens of the original messages represented, over all cascaded summaries. */
  originalTokens: number
}

export interface CompressionSettings {
  /** T: percent of the usable budget at which auto-compression fires. */
  thresholdPercent: number
  /** R: tokens of recent messages kept verbatim. */
  retentionTokens: number
  /** No auto-compression below this many history tokens (FR-5.4.1). */
  minimumTokens: number
}

/** Counts tokens of a text the way the chat's model would (framing of one message included). */
export type CountTokens = (text: string) => number
