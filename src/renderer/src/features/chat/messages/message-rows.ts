import type { ChatMessage } from '../../../../../shared/domain/chat-message'

export type Row =
  { kind: 'message'; key: string; message: ChatMessage; inContext: boolean } | { kind: 'divider'; key: string }

/**
 * The messages, with the "Active context starts here" divider after the last summarized one. When
 * newer messages are not loaded (`hasNewer`), a list of summarized ones gets no divider at its end:
 * the divider belongs before the first message in context, which is further on.
 */
export function buildRows(messages: readonly ChatMessage[], cutoffSeq: number, hasNewer = false): Row[] {
  const rows: Row[] = []
  let dividerPlaced = cutoffSeq <= 0
  for (const message of messages) {
    const inContext = message.seq > cutoffSeq
    if (inContext && !dividerPlaced) {
      if (rows.length > 0) rows.push({ kind: 'divider', key: 'context-divider' })
      dividerPlaced = true
    }
    rows.push({ kind: 'message', key: message.id, message, inContext })
  }
  if (!dividerPlaced && !hasNewer && rows.length > 0) rows.push({ kind: 'divider', key: 'context-divider' })
  return rows
}
