import type { Db } from '../client'
import { prepared } from './messages/messages-repo'

/** Sums of what providers reported for a chat's replies (every version, a regenerated one too: each was billed). */
export interface ReplyUsageTotals {
  requests: number
  inputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  outputTokens: number
  /** Replies whose provider said how much of the input its cache served (0 or a count). */
  cacheReported: number
}

export interface ReplyUsage {
  inputTokens: number
  cacheReadTokens: number | null
  cacheWriteTokens: number | null
  outputTokens: number | null
}

// Replies carry usage; the covering scan reads one chat's rows by the (session_id, seq) index.
const REPLY_TOTALS_SQL = `SELECT count(*) AS requests, coalesce(sum(input_tokens), 0) AS inputTokens,
         coalesce(sum(cache_read_tokens), 0) AS cacheReadTokens, coalesce(sum(cache_write_tokens), 0) AS cacheWriteTokens,
         coalesce(sum(output_tokens), 0) AS outputTokens, count(cache_read_tokens) AS cacheReported
    FROM chat_messages WHERE session_id = ? AND role = 'assistant' AND input_tokens IS NOT NULL`

const LAST_REPLY_SQL = `SELECT input_tokens AS inputTokens, cache_read_tokens AS cacheReadTokens,
         cache_write_tokens AS cacheWriteTokens, output_tokens AS outputTokens
    FROM chat_messages WHERE session_id = ? AND role = 'assistant' AND input_tokens IS NOT NULL
    ORDER BY seq DESC, created_at DESC LIMIT 1`

// Model summaries record what asking for them took (content_json.modelUsage); drafts and superseded ones were billed too.
const SUMMARY_TOTALS_SQL = `SELECT count(*) AS requests,
         coalesce(sum(json_extract(content_json, '$.modelUsage.inputTokens')), 0) AS inputTokens,
         coalesce(sum(json_extract(content_json, '$.modelUsage.outputTokens')), 0) AS outputTokens,
         coalesce(sum(json_extract(content_json, '$.modelUsage.cacheReadTokens')), 0) AS cacheReadTokens,
         coalesce(sum(json_extract(content_json, '$.modelUsage.cacheWriteTokens')), 0) AS cacheWriteTokens
    FROM session_snapshots WHERE session_id = ? AND json_extract(content_json, '$.modelUsage') IS NOT NULL`

export function replyUsageTotals(db: Db, sessionId: string): ReplyUsageTotals {
  return prepared<ReplyUsageTotals>(db, REPLY_TOTALS_SQL).get(sessionId)!
}

export function lastReplyUsage(db: Db, sessionId: string): ReplyUsage | undefined {
  return prepared<ReplyUsage>(db, LAST_REPLY_SQL).get(sessionId)
}

export interface SummaryUsageTotals {
  requests: number
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

export function summaryUsageTotals(db: Db, sessionId: string): SummaryUsageTotals {
  return prepared<SummaryUsageTotals>(db, SUMMARY_TOTALS_SQL).get(sessionId)!
}

const LAST_REPLY_AT_SQL = `SELECT created_at AS at FROM chat_messages
    WHERE session_id = ? AND role = 'assistant' AND seq < ? AND input_tokens IS NOT NULL
    ORDER BY seq DESC LIMIT 1`

/** When the chat's newest answered request before `beforeSeq` was made (its reply's time), if any. */
export function lastRequestAt(db: Db, sessionId: string, beforeSeq: number): number | undefined {
  return prepared<{ at: number }>(db, LAST_REPLY_AT_SQL).get(sessionId, beforeSeq)?.at
}
