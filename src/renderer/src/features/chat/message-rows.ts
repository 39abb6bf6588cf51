import type { ChatMessage } from '../../../../shared/domain/chat-message'

export type Row =
  | { kind: 'message'; key: string; message: ChatMessage; inContext: boolean }
  | { kind: 'divider'; key: string }

/** The messages, with the "Active context starts here" divider after the last summarized one. */
export function buildRows(messages: readonly ChatMessage[], cutoffSeq: number): Row[] {
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
  if (!dividerPlaced && rows.length > 0) rows.push({ kind: 'divider', key: 'context-divider' })
  return rows
}
