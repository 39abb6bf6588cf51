import { sql } from 'drizzle-orm'
import type { Db } from '../client'

export interface SearchRow {
  messageId: string
  seq: number
  role: string
  createdAt: number
  snippet: string
}

/**
 * Turns what a person types into an FTS5 query that cannot be a syntax error: each word becomes a
 * quoted prefix term, all of them required.
 */
export function ftsQuery(input: string): string | undefined {
  const terms = input
    .split(/\s+/)
    .map((t) => t.replace(/"/g, '').trim())
    // A term with no letters or digits would match nothing and empty the whole result.
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
  return terms.length ? terms.map((t) => `"${t}"*`).join(' ') : undefined
}

export function searchMessages(db: Db, sessionId: string, query: string, limit = 200): { rows: SearchRow[]; total: number } {
  const match = ftsQuery(query)
  if (!match) return { rows: [], total: 0 }
  const rows = db.all<SearchRow>(sql`
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
           snippet(messages_fts, 0, char(2), char(3), '…', 24) AS snippet
      FROM messages_fts JOIN chat_messages m ON m.rid = messages_fts.rowid
     WHERE messages_fts MATCH ${match} AND m.session_id = ${sessionId}
     ORDER BY m.seq
     LIMIT ${limit}`)
  const total = db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM messages_fts JOIN chat_messages m ON m.rid = messages_fts.rowid
     WHERE messages_fts MATCH ${match} AND m.session_id = ${sessionId}`)!.n
  return { rows, total }
}

export interface ChatMatchRow {
  sessionId: string
  /** The chat's best-ranked matching message. */
  messageId: string
  seq: number
  role: string
  snippet: string
  /** How many of the chat's messages match. */
  matches: number
  /** bm25 of the best message (lower is better). */
  rank: number
}

/**
 * Full-text search across every chat: one row per chat with its best message (bm25), best chats
 * first. The hits are materialized first because FTS5 ranking cannot be grouped directly.
 */
export function searchChats(db: Db, query: string, limit = 50): ChatMatchRow[] {
  const match = ftsQuery(query)
  if (!match) return []
  const best = db.all<Omit<ChatMatchRow, 'snippet' | 'seq' | 'role'> & { rid: number }>(sql`
    WITH hits AS MATERIALIZED (
      SELECT rowid AS rid, session_id AS sessionId, message_id AS messageId, rank
        FROM messages_fts WHERE messages_fts MATCH ${match}
    ), ranked AS (
      SELECT rid, sessionId, messageId, rank,
             row_number() OVER (PARTITION BY sessionId ORDER BY rank, rid) AS n,
             count(*) OVER (PARTITION BY sessionId) AS matches
        FROM hits
    )
    SELECT r.rid, r.sessionId, r.messageId, r.rank, r.matches
      FROM ranked r JOIN sessions s ON s.id = r.sessionId
     WHERE r.n = 1 AND s.archived = 0
     ORDER BY r.rank, s.updated_at DESC
     LIMIT ${limit}`)
  return best.map(({ rid, ...row }) => {
    const detail = db.get<{ seq: number; role: string; snippet: string }>(sql`
      SELECT m.seq AS seq, m.role AS role, snippet(messages_fts, 0, char(2), char(3), '…', 12) AS snippet
        FROM messages_fts JOIN chat_messages m ON m.rid = messages_fts.rowid
       WHERE messages_fts MATCH ${match} AND messages_fts.rowid = ${rid}`)!
    return { ...row, ...detail }
  })
}
