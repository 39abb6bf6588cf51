import type { Db } from '../../client'
import { listHistoryHeadsPage, listNewestHistoryHeads, prepared } from './messages-repo'

const PAGE = 500

export interface HeadMark {
  id: string
  seq: number
  createdAt: number
}

/**
 * The oldest message of the newest stretch of the request history in (afterSeq, beforeSeq) whose
 * stored counts reach `tokens`: where a backlog's read begins. Undefined when the history holds
 * less, or a message in the stretch was never counted (the caller then reads it all).
 */
export function backlogTailStart(
  db: Db,
  sessionId: string,
  afterSeq: number,
  beforeSeq: number,
  tokens: number
): HeadMark | undefined {
  let sum = 0
  let upper = beforeSeq
  for (;;) {
    const heads = listNewestHistoryHeads(db, sessionId, afterSeq, upper, PAGE)
    for (const h of heads) {
      if (h.tokenCount === null) return undefined
      sum += h.tokenCount
      if (sum >= tokens) return { id: h.id, seq: h.seq, createdAt: h.createdAt }
    }
    if (heads.length < PAGE) return undefined
    upper = heads.at(-1)!.seq
  }
}

export interface BacklogSpan {
  messages: number
  first: HeadMark
  last: HeadMark
}

const COUNT_SQL = `SELECT count(*) AS n FROM chat_messages INDEXED BY chat_messages_context_idx
    WHERE session_id = ? AND seq > ? AND seq < ? AND hidden_in IS NULL
      AND (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND part_count > 0))`

/** The request history in (afterSeq, beforeSeq), which must hold a message: how many, first and last. */
export function backlogSpan(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): BacklogSpan {
  const mark = (h: HeadMark) => ({ id: h.id, seq: h.seq, createdAt: h.createdAt })
  return {
    messages: prepared<{ n: number }>(db, COUNT_SQL).get(sessionId, afterSeq, beforeSeq)?.n ?? 0,
    first: mark(listHistoryHeadsPage(db, sessionId, afterSeq, beforeSeq, 1)[0]!),
    last: mark(listNewestHistoryHeads(db, sessionId, afterSeq, beforeSeq, 1)[0]!)
  }
}
