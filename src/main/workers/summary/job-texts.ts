import { SUMMARY_PREFIX } from '../../engine/build-context'
import type { EngineRole } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { countMessage } from '../../tokens/message-tokens'

/** A message to summarize: its text, or its id for the thread to read the text from the database itself. */
export type JobMessage = { role: EngineRole; createdAt?: number } & ({ text: string } | { id: string })

/** Reads messages' text by id (on the thread, from its own connection). */
export type ReadTexts = (ids: string[]) => Map<string, string>

/** Counts a summary text as a request carries it (its system message, prefix included: Conversation.summaryTokensOf). */
export function summaryCounter(spec: ModelSpec): (text: string) => number {
  return (text) => countMessage({ role: 'system', parts: [{ type: 'text', text: SUMMARY_PREFIX + text }] }, spec).tokens
}

/** The messages with their text: given with them, or read by id in one go. */
export function withTextsRead<M extends { text: string } | { id: string }>(
  messages: readonly M[],
  readTexts?: ReadTexts
): Array<M & { text: string }> {
  const ids = messages.flatMap((m) => ('text' in m && m.text !== undefined ? [] : 'id' in m ? [m.id] : []))
  const texts = ids.length > 0 && readTexts ? readTexts(ids) : new Map<string, string>()
  return messages.map((m) => {
    const text = 'text' in m && m.text !== undefined ? m.text : 'id' in m ? texts.get(m.id) : undefined
    // A message gone from the database since the plan: the caller does the work from its own copy.
    if (text === undefined) throw new Error(`Message ${'id' in m ? m.id : ''} was not found.`)
    return { ...m, text }
  })
}
