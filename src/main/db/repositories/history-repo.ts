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
