import { and, asc, desc, eq, gt, gte, isNull, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import type { Db } from '../../client'
import { chatMessages } from '../../schema'
import { toChatMessage } from './messages-repo'

/** Where a page starts: the newest messages, before or after a seq, or around one (a seq on or off the path). */
export type PageCursor = { before: number } | { after: number } | { aroundSeq: number } | Record<string, never>

export interface MessagePage {
  /** Oldest first. */
  messages: ChatMessage[]
  hasOlder: boolean
  hasNewer: boolean
}

const onPath = (sessionId: string, ...more: SQL[]) =>
  and(eq(chatMessages.sessionId, sessionId), isNull(chatMessages.hiddenIn), ...more)

/**
 * Up to `limit` messages of a chat's path (the version in use) from `where`, in `order`, plus one
 * more that only says whether there are more. Each read walks the (session_id, seq) index from the
 * cursor, so it costs what the page holds, not what the chat holds.
 */
function walk(
  db: Db,
  sessionId: string,
  where: SQL,
  order: 'asc' | 'desc',
  limit: number
): { rows: ChatMessage[]; more: boolean } {
  if (limit <= 0) return { rows: [], more: exists(db, sessionId, where) }
  const rows = db
    .select()
    .from(chatMessages)
    .where(onPath(sessionId, where))
    .orderBy(order === 'asc' ? asc(chatMessages.seq) : desc(chatMessages.seq))
    .limit(limit + 1)
    .all()
  const more = rows.length > limit
  const page = (more ? rows.slice(0, limit) : rows).map(toChatMessage)
  return { rows: order === 'asc' ? page : page.reverse(), more }
}

/** Whether any message of the path matches `where` (one index probe). */
function exists(db: Db, sessionId: string, where: SQL): boolean {
  return !!db
    .select({ one: sql`1` })
    .from(chatMessages)
    .where(onPath(sessionId, where))
    .limit(1)
    .get()
}

/** A page of a chat's conversation (see PageCursor); `limit` messages at most. */
export function readMessagePage(db: Db, sessionId: string, cursor: PageCursor, limit: number): MessagePage {
  if ('before' in cursor) {
    const older = walk(db, sessionId, lt(chatMessages.seq, cursor.before), 'desc', limit)
    return {
      messages: older.rows,
      hasOlder: older.more,
      hasNewer: exists(db, sessionId, gte(chatMessages.seq, cursor.before))
    }
  }
  if ('after' in cursor) {
    const newer = walk(db, sessionId, gt(chatMessages.seq, cursor.after), 'asc', limit)
    return {
      messages: newer.rows,
      hasOlder: exists(db, sessionId, lte(chatMessages.seq, cursor.after)),
      hasNewer: newer.more
    }
  }
  if ('aroundSeq' in cursor) {
    // The message in the middle: a few more before it than after, so it is not at the page's edge.
    const olderCount = Math.floor(limit / 2)
    const older = walk(db, sessionId, lt(chatMessages.seq, cursor.aroundSeq), 'desc', olderCount)
    const newer = walk(db, sessionId, gte(chatMessages.seq, cursor.aroundSeq), 'asc', limit - olderCount)
    return { messages: [...older.rows, ...newer.rows], hasOlder: older.more, hasNewer: newer.more }
  }
  const newest = walk(db, sessionId, sql`1 = 1`, 'desc', limit)
  return { messages: newest.rows, hasOlder: newest.more, hasNewer: false }
}

/** The seq of one message of a chat (on the path or set aside as another version), if it is in that chat. */
export function seqOfMessage(db: Db, sessionId: string, messageId: string): number | undefined {
  return db
    .select({ seq: chatMessages.seq })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.sessionId, sessionId)))
    .get()?.seq
}

/** The newest seq on the path before `seq` (0: none), where a changed stretch of the conversation starts. */
export function pathSeqBefore(db: Db, sessionId: string, seq: number): number {
  return (
    db
      .select({ seq: chatMessages.seq })
      .from(chatMessages)
      .where(onPath(sessionId, lt(chatMessages.seq, seq)))
      .orderBy(desc(chatMessages.seq))
      .limit(1)
      .get()?.seq ?? 0
  )
}

/** How many messages of the path have a seq up to `seq` (the summarized ones, for a summary's cutoff). */
export function countPathUpTo(db: Db, sessionId: string, seq: number): number {
  if (seq <= 0) return 0
  // Counted on the covering context index: no message text is read.
  return (
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM chat_messages INDEXED BY chat_messages_context_idx
      WHERE session_id = ${sessionId} AND seq <= ${seq} AND hidden_in IS NULL`)?.n ?? 0
  )
}
