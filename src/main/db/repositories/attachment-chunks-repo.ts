import { sql } from 'drizzle-orm'
import type { Db } from '../client'

/** The recall index of attachments' text (`attachment_chunks`, FTS5: drizzle/0014_attachment_recall.sql). */

/** A MATCH term for one file (hashes are hex, one token each: see drizzle/0014_attachment_recall.sql). */
const fileTerm = (hash: string) => `"${hash.replace(/[^0-9a-f]/g, '')}"`

/** Above this many files a search filters them in SQL rather than in the FTS5 query. */
const MAX_FILE_TERMS = 200

export function hasChunks(db: Db, hash: string): boolean {
  return (
    db.get<{ one: number }>(
      sql`SELECT 1 AS one FROM attachment_chunks WHERE attachment_chunks MATCH ${`hash : ${fileTerm(hash)}`} LIMIT 1`
    ) !== undefined
  )
}

/** Indexes a file's passages once; a file indexed before is left as it is. */
export function indexChunks(db: Db, hash: string, chunks: readonly string[]): void {
  if (chunks.length === 0 || hasChunks(db, hash)) return
  insertChunks(db, hash, chunks)
}

/** Adds passages `first`… of a file to the index, in one transaction. */
export function insertChunks(db: Db, hash: string, chunks: readonly string[], first = 0): void {
  db.transaction((tx) => {
    chunks.forEach((text, i) =>
      tx.run(sql`INSERT INTO attachment_chunks (text, hash, chunk) VALUES (${text}, ${hash}, ${first + i})`)
    )
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

export interface ChatFile {
  hash: string
  /** The earliest message before the cutoff that carries it. */
  seq: number
}

/**
 * The files attached to a chat's messages before `beforeSeq` (the summarized ones, on the
 * conversation's path), each with the earliest of those messages. Most chats have none; a caller
 * that searches often keeps the answer until the summary changes (summarized messages do not).
 */
export function filesBefore(db: Db, sessionId: string, beforeSeq: number): ChatFile[] {
  return db.all<ChatFile>(sql`
    SELECT ma.hash AS hash, min(m.seq) AS seq
      FROM chat_messages m JOIN message_attachments ma ON ma.message_id = m.id
     WHERE m.session_id = ${sessionId} AND m.seq < ${beforeSeq} AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')
     GROUP BY ma.hash`)
}

/**
 * Passages of the files attached to a chat's messages before `beforeSeq` that match an FTS5
 * query, best first. A file attached to several of those messages is found once, with the earliest
 * of them. The search is limited to the chat's files (`files`: filesBefore, read here when not given).
 */
export function searchAttachmentChunks(
  db: Db,
  sessionId: string,
  ftsQuery: string,
  options: { beforeSeq: number; limit: number; files?: readonly ChatFile[] }
): AttachmentChunkHit[] {
  const files = options.files ?? filesBefore(db, sessionId, options.beforeSeq)
  if (files.length === 0) return []
  const seqOf = new Map(files.map((f) => [f.hash, f.seq]))
  const inFiles =
    files.length <= MAX_FILE_TERMS
      ? { match: ` AND hash : (${files.map((f) => fileTerm(f.hash)).join(' OR ')})`, where: sql`` }
      : {
          match: '',
          where: sql` AND hash IN (${sql.join(
            files.map((f) => sql`${f.hash}`),
            sql`, `
          )})`
        }
  const hits = db.all<{ hash: string; chunk: number; text: string; score: number }>(sql`
    SELECT hash, chunk, text, bm25(attachment_chunks, 1.0, 0.0) AS score
      FROM attachment_chunks
     WHERE attachment_chunks MATCH ${`text : (${ftsQuery})${inFiles.match}`}${inFiles.where}
     ORDER BY score
     LIMIT ${options.limit}`)
  if (hits.length === 0) return []
  const seqs = [...new Set(hits.map((h) => seqOf.get(h.hash)!))]
  const messages = db.all<{
    messageId: string
    seq: number
    role: 'user' | 'assistant'
    createdAt: number
    parts: string
  }>(sql`
    SELECT id AS messageId, seq, role, created_at AS createdAt, parts
      FROM chat_messages
     WHERE session_id = ${sessionId} AND hidden_in IS NULL AND seq IN (${sql.join(
       seqs.map((q) => sql`${q}`),
       sql`, `
     )})`)
  const bySeq = new Map(messages.map((m) => [m.seq, m]))
  return hits.flatMap((h) => {
    const m = bySeq.get(seqOf.get(h.hash)!)
    return m ? [{ ...m, ...h }] : []
  })
}
