import type { Db } from '../../client'
import { sqliteClient } from '../sqlite-client'
import { historyTotals, prepared, type HistoryTotal } from './messages-repo'

/** Seqs per block of `chat_count_blocks` (the triggers use `seq >> 10`). */
const BLOCK = 1024

const MARKED_SQL = 'SELECT 1 FROM chat_count_blocks WHERE session_id = ? AND block = -1'
const FILL_SQL = `INSERT OR REPLACE INTO chat_count_blocks (session_id, block, counter, messages, tokens, counted)
  SELECT session_id, seq >> 10, coalesce(token_counter, ''), count(*), coalesce(sum(token_count), 0), count(token_count)
    FROM chat_messages INDEXED BY chat_messages_context_idx
   WHERE session_id = ? AND hidden_in IS NULL
     AND (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND part_count > 0))
   GROUP BY seq >> 10, token_counter`
const MARK_SQL = `INSERT OR IGNORE INTO chat_count_blocks (session_id, block, counter) VALUES (?, -1, '')`
const BLOCKS_SQL = `SELECT nullif(counter, '') AS counter, sum(messages) AS messages, sum(tokens) AS tokens, sum(counted) AS counted
    FROM chat_count_blocks WHERE session_id = ? AND block >= ? AND block <= ? GROUP BY counter HAVING sum(messages) > 0`

/**
 * Whether the chat's blocks are kept. A chat created before the blocks existed is summed once
 * (one pass over its messages) and marked; a read-only connection cannot, and says no.
 */
function ensureBlocks(db: Db, sessionId: string): boolean {
  if (prepared(db, MARKED_SQL).get(sessionId)) return true
  const client = sqliteClient(db)
  if (client.readonly) return false
  client.transaction(() => {
    prepared(db, FILL_SQL).run(sessionId)
    prepared(db, MARK_SQL).run(sessionId)
  })()
  return true
}

/** Sums of the same counter added up. */
export function mergeTotals(groups: readonly HistoryTotal[]): HistoryTotal[] {
  const merged = new Map<string | null, HistoryTotal>()
  for (const g of groups) {
    const m = merged.get(g.counter)
    merged.set(
      g.counter,
      m
        ? {
            counter: g.counter,
            messages: m.messages + g.messages,
            tokens: m.tokens + g.tokens,
            counted: m.counted + g.counted
          }
        : { ...g }
    )
  }
  return [...merged.values()]
}

/**
 * `historyTotals` read from the blocks: the whole blocks inside (afterSeq, beforeSeq) from their
 * sums, the two partial ones at its ends from the messages (under 1,024 each). What a request
 * reads no longer grows with the chat.
 */
export function blockTotals(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): HistoryTotal[] {
  const first = Math.ceil((afterSeq + 1) / BLOCK)
  const last = Number.isFinite(beforeSeq) ? Math.floor(beforeSeq / BLOCK) - 1 : Number.MAX_SAFE_INTEGER
  if (first > last || !ensureBlocks(db, sessionId)) return historyTotals(db, sessionId, afterSeq, beforeSeq)
  const groups = [
    ...historyTotals(db, sessionId, afterSeq, first * BLOCK),
    ...prepared<HistoryTotal>(db, BLOCKS_SQL).all(sessionId, first, last),
    ...(Number.isFinite(beforeSeq) ? historyTotals(db, sessionId, (last + 1) * BLOCK - 1, beforeSeq) : [])
  ]
  return mergeTotals(groups)
}
