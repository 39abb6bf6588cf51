import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { chatMatch, FTS_FIRST, type RecallRow } from './search-repo'

/**
 * A message of a summary's span that a line of the summary may come from: a Recall row whose text is
 * the start of the message's text as the index holds it (at most SPAN_TEXT_CHARS).
 */
export type SpanMatch = RecallRow

/** How much of a candidate's text comes back to be compared with a line. */
export const SPAN_TEXT_CHARS = 20_000

/**
 * The messages of a chat with `afterSeq < seq <= uptoSeq` (the span a summary, or a part of it,
 * covers) matching an FTS5 query, best bm25 first: the candidates a summary line is compared with.
 * Only the messages of the chat's active version; system messages are never summarized.
 */
export function matchInSpan(
  db: Db,
  sessionId: string,
  ftsQuery: string,
  span: { afterSeq: number; uptoSeq: number },
  limit: number
): SpanMatch[] {
  if (span.uptoSeq <= span.afterSeq) return []
  return db.all<SpanMatch>(sql`
    SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
           substr(messages_fts.text, 1, ${SPAN_TEXT_CHARS}) AS text, bm25(messages_fts, 1, 0, 0) AS score
      FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${chatMatch(db, sessionId, ftsQuery)} AND m.session_id = ${sessionId}
       AND m.seq > ${span.afterSeq} AND m.seq <= ${span.uptoSeq} AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant', 'tool')
     ORDER BY score
     LIMIT ${limit}`)
}
