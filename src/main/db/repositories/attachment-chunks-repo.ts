import { sql } from 'drizzle-orm'
import type { Db } from '../client'

/** The recall index of attachments' text (`attachment_chunks`, FTS5: drizzle/0014_attachment_recall.sql). */

export function hasChunks(db: Db, hash: string): boolean {
  return db.get<{ one: number }>(sql`SELECT 1 AS one FROM attachment_chunks WHERE hash = ${hash} LIMIT 1`) !== undefined
}

/** Indexes a file's passages once; a file indexed before is left as it is. */
export function indexChunks(db: Db, hash: string, chunks: readonly string[]): void {
  if (chunks.length === 0 || hasChunks(db, hash)) return
  db.transaction((tx) => {
    chunks.forEach((text, chunk) => tx.run(sql`INSERT INTO attachment_chunks (text, hash, chunk) VALUES (${text}, ${hash}, ${chunk})`))
  })
}

export interface AttachmentChunkHit {
  messageId: string
  seq: number
  role: 'user' | 'assistant'
  createdAt: number
  /** The message's parts (JSON), for the file's name as it was attached. */
  parts: string
  hash: string
  chunk: number
  text: string
  /** bm25: lower is better. */
  score: number
}

/**
 * Passages of the files attached to a chat's messages before `beforeSeq` (the summarized ones, on
 * the conversation's path) that match an FTS5 query, best first. A file attached to several of
 * those messages is found once, with the earliest of them.
 */
export function searchAttachmentChunks(db: Db, sessionId: string, ftsQuery: string, options: { beforeSeq: number; limit: number }): AttachmentChunkHit[] {
  return db.all<AttachmentChunkHit>(sql`
    WITH hits AS (
      SELECT hash, chunk, text, bm25(attachment_chunks) AS score FROM attachment_chunks WHERE attachment_chunks MATCH ${`text : (${ftsQuery})`}
    )
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt, m.parts AS parts,
           h.hash AS hash, h.chunk AS chunk, h.text AS text, h.score AS score
      FROM hits h
      JOIN message_attachments ma ON ma.hash = h.hash
      JOIN chat_messages m ON m.id = ma.message_id
     WHERE m.session_id = ${sessionId} AND m.seq < ${options.beforeSeq} AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')
       AND m.seq = (SELECT min(m2.seq) FROM message_attachments ma2 JOIN chat_messages m2 ON m2.id = ma2.message_id
                     WHERE ma2.hash = h.hash AND m2.session_id = ${sessionId} AND m2.hidden_in IS NULL AND m2.seq < ${options.beforeSeq})
     ORDER BY h.score
     LIMIT ${options.limit}`)
}
