import type { AttachmentPart, MessagePart } from '../../../shared/domain/chat-message'
import { searchAttachmentChunks, type ChatFile } from '../../db/repositories/attachment-chunks-repo'
import type { RecallRow } from '../../db/repositories/search-repo'
import type { Db } from '../../db/client'

/**
 * Recall of attachments: the passages of text, code and PDF files attached to summarized messages
 * that match the pending message, as recall rows of the message that carried the file, labelled
 * with the file's name. The engine plans them like any other hit.
 */

/** The label a recalled passage of a file carries, so the model knows where the text comes from. */
export function attachmentPassage(filename: string, text: string): string {
  return `(from the attached file “${filename}”)\n${text.trim()}`
}

function filenameOf(partsJson: string, hash: string): string {
  try {
    const parts = JSON.parse(partsJson) as MessagePart[]
    const part = parts.find((p): p is AttachmentPart => p.type === 'attachment' && p.hash === hash)
    return part?.filename ?? 'file'
  } catch {
    return 'file'
  }
}

/** Passages of the chat's summarized attachments matching an FTS5 query, best first, as recall rows. */
export function attachmentRecallRows(
  db: Db,
  sessionId: string,
  ftsQuery: string,
  options: { beforeSeq: number; limit: number; files?: readonly ChatFile[] }
): RecallRow[] {
  if (options.files?.length === 0) return []
  return searchAttachmentChunks(db, sessionId, ftsQuery, options).map((hit) => ({
    messageId: hit.messageId,
    seq: hit.seq,
    role: hit.role,
    createdAt: hit.createdAt,
    text: attachmentPassage(filenameOf(hit.parts, hit.hash), hit.text),
    score: hit.score
  }))
}

export const MAX_FILE_PASSAGES_PER_MESSAGE = 2

/**
 * Message hits and attachment hits as one list of rows, one per message (recall plans messages):
 * a file's passages join their message's row, which keeps the better score; best first.
 */
export function mergeRecallRows(messages: readonly RecallRow[], files: readonly RecallRow[]): RecallRow[] {
  if (files.length === 0) return [...messages]
  const byId = new Map<string, RecallRow>()
  // The best passages of a message's files, no more than this many: one message's files should not fill recall's room.
  const perMessage = new Map<string, number>()
  const kept = files.filter((f) => {
    const n = (perMessage.get(f.messageId) ?? 0) + 1
    perMessage.set(f.messageId, n)
    return n <= MAX_FILE_PASSAGES_PER_MESSAGE
  })
  for (const row of [...messages, ...kept]) {
    const seen = byId.get(row.messageId)
    byId.set(
      row.messageId,
      seen ? { ...seen, text: `${seen.text}\n\n${row.text}`, score: Math.min(seen.score, row.score) } : row
    )
  }
  return [...byId.values()].sort((a, b) => a.score - b.score)
}
