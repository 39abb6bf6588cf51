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
export function ftsQuery(input: string, { prefix = true } = {}): string | undefined {
  const terms = input
    .split(/\s+/)
    .map((t) => t.replace(/"/g, '').trim())
    // A term with no letters or digits would match nothing and empty the whole result.
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
  return terms.length ? terms.map((t) => `"${t}"${prefix ? '*' : ''}`).join(' ') : undefined
}

/**
 * The index joined to its messages with the index as the outer loop (CROSS JOIN keeps SQLite from
 * reordering it). Driven from chat_messages instead, SQLite runs the whole MATCH (bm25 included) once
 * per message of the chat: recall in a 10-message chat took over 0.5 s next to a 100,000-message one.
 */
export const FTS_FIRST = sql.raw('messages_fts CROSS JOIN chat_messages m ON m.rid = messages_fts.rowid')

/**
 * A MATCH expression for an FTS5 query over one chat's messages. The index's `chat` column holds
 * the chat id without hyphens (one token for a UUID, see drizzle/0011_messages_fts_by_chat.sql), so
 * FTS5 intersects the query with that chat's doclist: the cost follows the chat, not the database.
 * Callers still filter on chat_messages.session_id, which makes the result exact whatever the id.
 */
function inChat(sessionId: string, query: string): string {
  return `chat : "${sessionId.replace(/-/g, '').replace(/"/g, '""')}" AND ${inText(query)}`
}

/**
 * The MATCH expression for a search within a chat: with the chat filter, unless the chat is most of
 * the index (the filter then only adds work: ~10–30% on a 100,000-message chat). Sizes are read
 * from two index lookups (the chat's last seq, the last rowid), upper bounds that are good enough.
 */
export function chatMatch(db: Db, sessionId: string, query: string): string {
  const size = db.get<{ chat: number; all: number }>(sql`
    SELECT (SELECT coalesce(max(seq), 0) FROM chat_messages WHERE session_id = ${sessionId}) AS chat,
           (SELECT coalesce(max(rid), 0) FROM chat_messages) AS "all"`)!
  return size.chat * 2 > size.all ? inText(query) : inChat(sessionId, query)
}

/** A MATCH expression for an FTS5 query over message text only (never the `chat` column). */
export function inText(query: string): string {
  return `text : (${query})`
}

export function searchMessages(
  db: Db,
  sessionId: string,
  query: string,
  limit = 200
): { rows: SearchRow[]; total: number } {
  const terms = ftsQuery(query)
  if (!terms) return { rows: [], total: 0 }
  const match = chatMatch(db, sessionId, terms)
  const rows = db.all<SearchRow>(sql`
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
           snippet(messages_fts, 0, char(2), char(3), '…', 24) AS snippet
      FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${match} AND m.session_id = ${sessionId} AND m.hidden_in IS NULL
     ORDER BY m.seq
     LIMIT ${limit}`)
  // A page that is not full holds every hit: counting them again would repeat the search.
  if (rows.length < limit) return { rows, total: rows.length }
  const total = db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${match} AND m.session_id = ${sessionId} AND m.hidden_in IS NULL`)!.n
  return { rows, total }
}

export interface RecallRow {
  messageId: string
  seq: number
  role: 'system' | 'user' | 'assistant' | 'tool'
  createdAt: number
  /** The message's text parts, as the full-text index holds them. */
  text: string
  /** bm25: lower (more negative) is a better match. */
  score: number
}

/**
 * Messages of a chat's summarized history one Recall term may match before it counts as common.
 * bm25 reads the positions of every match, so ranking a word said in tens of thousands of a long
 * chat's messages cost 60–300 ms per query at 100,000 messages; such a word adds almost nothing to a
 * rank (bm25's idf), while a rarer word of the same query decides it.
 */
export const COMMON_TERM_MATCHES = 2_000

/** How many messages an FTS5 MATCH finds, counting at most `limit` (the doclist is walked, nothing ranked). */
function matchesUpTo(db: Db, match: string, limit: number): number {
  return db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ${match} LIMIT ${limit})`)!.n
}

/**
 * Summarized originals matching an FTS5 query (built by the engine's recallQuery: terms joined by
 * OR), best bm25 first: only user and assistant messages before `beforeSeq` (the active summary's
 * cutoff + 1), so nothing the request already carries verbatim comes back. Terms matching more than
 * `commonMatches` messages are left out of the ranking when the query has rarer ones; a query of
 * common terms only ranks the newest `commonMatches` summarized matches. Below that (every chat of
 * up to a few thousand messages) the query runs as given, so the cost stays flat in the chat's length.
 */
export function searchSummarized(
  db: Db,
  sessionId: string,
  ftsQuery: string,
  options: { beforeSeq: number; limit?: number; excludeIds?: readonly string[]; commonMatches?: number }
): RecallRow[] {
  const exclude = new Set(options.excludeIds ?? [])
  const limit = (options.limit ?? 30) + exclude.size
  const common = options.commonMatches ?? COMMON_TERM_MATCHES
  const terms = ftsQuery.split(' OR ')
  const isCommon = terms.map((t) => matchesUpTo(db, chatMatch(db, sessionId, t), common + 1) > common)
  const rare = terms.filter((_, i) => !isCommon[i])
  const where = sql`m.session_id = ${sessionId} AND m.seq < ${options.beforeSeq} AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')`
  let rows: RecallRow[]
  if (rare.length > 0) {
    rows = db.all<RecallRow>(sql`
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
           messages_fts.text AS text, bm25(messages_fts, 1, 0, 0) AS score
      FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${chatMatch(db, sessionId, rare.join(' OR '))} AND ${where}
     ORDER BY score
     LIMIT ${limit}`)
  } else {
    // Only the newest matches up to the last summarized message are ranked: FTS5 walks the doclist
    // newest first and stops at the LIMIT. The rowid bound is written into the SQL (bound, FTS5 read
    // the whole doclist); a chat's messages are inserted in seq order, so its rids follow its seqs.
    const last = db.get<{ rid: number }>(sql`
      SELECT rid FROM chat_messages WHERE session_id = ${sessionId} AND seq < ${options.beforeSeq}
       ORDER BY seq DESC LIMIT 1`)
    if (!last) return []
    rows = db.all<RecallRow>(sql`
    WITH newest AS MATERIALIZED (
      SELECT rowid AS rid, text, bm25(messages_fts, 1, 0, 0) AS score
        FROM messages_fts
       WHERE messages_fts MATCH ${chatMatch(db, sessionId, ftsQuery)} AND rowid <= ${sql.raw(String(Math.trunc(last.rid)))}
       ORDER BY rowid DESC
       LIMIT ${common}
    )
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt, n.text AS text, n.score AS score
      FROM newest n CROSS JOIN chat_messages m ON m.rid = n.rid
     WHERE ${where}
     ORDER BY score
     LIMIT ${limit}`)
  }
  return rows.filter((r) => !exclude.has(r.messageId)).slice(0, options.limit ?? 30)
}

/** The newest user and assistant messages of a chat holding an FTS5 term (a name, to learn who it is). */
export function messagesWithTerm(
  db: Db,
  sessionId: string,
  term: string,
  limit: number
): Array<{ role: RecallRow['role']; text: string }> {
  return db.all(sql`
    SELECT m.role AS role, messages_fts.text AS text
      FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${chatMatch(db, sessionId, term)} AND m.session_id = ${sessionId} AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant')
     ORDER BY m.seq DESC
     LIMIT ${limit}`)
}

/** User and assistant messages at the given seqs (neighbours of recalled ones), before `beforeSeq`. */
export function summarizedAtSeqs(
  db: Db,
  sessionId: string,
  seqs: readonly number[],
  beforeSeq: number
): Omit<RecallRow, 'score'>[] {
  const wanted = [...new Set(seqs)].filter((s) => s >= 1 && s < beforeSeq)
  if (wanted.length === 0) return []
  return db.all<Omit<RecallRow, 'score'>>(sql`
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt, f.text AS text
      FROM chat_messages m JOIN messages_fts f ON f.rowid = m.rid
     WHERE m.session_id = ${sessionId} AND m.hidden_in IS NULL AND m.seq IN (${sql.join(
       wanted.map((s) => sql`${s}`),
       sql`, `
     )})
       AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')`)
}

/** How far back a date stated at the start of a message is looked for. */
export const DATED_LOOKBACK = 400

/**
 * The openings of the nearest messages at or before `seq` (and after `after`, by default
 * DATED_LOOKBACK back) whose text may start with a date (a bracket, a digit, or a month or weekday
 * name), newest first; the engine decides which really state one.
 */
export function datedOpeningsBefore(
  db: Db,
  sessionId: string,
  seq: number,
  limit = 6,
  after = seq - DATED_LOOKBACK
): Array<{ seq: number; createdAt: number; head: string }> {
  return db.all(sql`
    SELECT m.seq AS seq, m.created_at AS createdAt, substr(f.text, 1, 120) AS head
      FROM chat_messages m JOIN messages_fts f ON f.rowid = m.rid
     WHERE m.session_id = ${sessionId} AND m.hidden_in IS NULL AND m.seq <= ${seq} AND m.seq > ${after}
       AND (substr(ltrim(f.text), 1, 1) IN ('(', '[') OR substr(ltrim(f.text), 1, 1) BETWEEN '0' AND '9'
            OR lower(substr(ltrim(f.text), 1, 3)) IN ('jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec',
                                                      'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'))
     ORDER BY m.seq DESC
     LIMIT ${limit}`)
}
