import { asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Db } from '../client'
import { chatMessages, type ChatMessageRow, type NewChatMessageRow } from '../schema'

export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return {
    id: row.id,
    sessionId: row.sessionId,
    seq: row.seq,
    role: row.role,
    parts: row.parts,
    status: row.status,
    error: row.error ?? null,
    tokenCount: row.tokenCount,
    tokenCounter: row.tokenCounter,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    createdAt: row.createdAt
  }
}

/**
 * Appends a message with the next seq of its session. Call inside a transaction when the caller
 * writes more than this one row; the unique (session_id, seq) index guards against races.
 */
export function appendMessage(db: Db, row: Omit<NewChatMessageRow, 'seq' | 'rid'>): ChatMessage {
  const next = db
    .select({ seq: sql<number>`coalesce(max(${chatMessages.seq}), 0) + 1` })
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, row.sessionId))
    .get()
  const inserted = db
    .insert(chatMessages)
    .values({ ...row, seq: next?.seq ?? 1 })
    .returning()
    .get()
  return toChatMessage(inserted)
}

export function listMessages(db: Db, sessionId: string): ChatMessage[] {
  return db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, sessionId))
    .orderBy(asc(chatMessages.seq))
    .all()
    .map(toChatMessage)
}

export function findMessage(db: Db, id: string): ChatMessage | undefined {
  const row = db.select().from(chatMessages).where(eq(chatMessages.id, id)).get()
  return row ? toChatMessage(row) : undefined
}

export function updateMessage(
  db: Db,
  id: string,
  patch: Partial<Pick<NewChatMessageRow, 'parts' | 'status' | 'error' | 'tokenCount' | 'tokenCounter' | 'inputTokens' | 'outputTokens'>>
): ChatMessage | undefined {
  const row = db.update(chatMessages).set(patch).where(eq(chatMessages.id, id)).returning().get()
  return row ? toChatMessage(row) : undefined
}

export function lastMessage(db: Db, sessionId: string): ChatMessage | undefined {
  const row = db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, sessionId))
    .orderBy(desc(chatMessages.seq))
    .limit(1)
    .get()
  return row ? toChatMessage(row) : undefined
}

/** Replies that were streaming when the app stopped: keep what arrived, marked as interrupted. */
export function markInterruptedReplies(db: Db, error: { code: string; message: string }): number {
  return db
    .update(chatMessages)
    .set({ status: 'aborted', error })
    .where(eq(chatMessages.status, 'streaming'))
    .run().changes
}

/** What context accounting needs of a message, without loading its parts. */
export interface MessageHead {
  id: string
  seq: number
  role: ChatMessage['role']
  status: ChatMessage['status']
  tokenCount: number | null
  tokenCounter: string | null
  createdAt: number
  partCount: number
  /** The parts, only for messages with tool calls or results (their ids pair them up). */
  toolParts: ChatMessage['parts'] | null
}

/**
 * The request history in (afterSeq, beforeSeq) as heads: complete messages and stopped replies with
 * text. Parts stay in the database; a 10,000-message chat reads in milliseconds.
 */
export function listHistoryHeads(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): MessageHead[] {
  const rows = db.all<Omit<MessageHead, 'toolParts'> & { toolParts: string | null }>(sql`
    SELECT id, seq, role, status, token_count AS tokenCount, token_counter AS tokenCounter,
           created_at AS createdAt, json_array_length(parts) AS partCount,
           CASE WHEN instr(parts, '"type":"tool-') > 0 THEN parts END AS toolParts
      FROM chat_messages
     WHERE session_id = ${sessionId} AND seq > ${afterSeq} AND seq < ${Number.isFinite(beforeSeq) ? beforeSeq : Number.MAX_SAFE_INTEGER}
       AND (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND json_array_length(parts) > 0))
     ORDER BY seq`)
  return rows.map((r) => ({ ...r, toolParts: r.toolParts ? (JSON.parse(r.toolParts) as ChatMessage['parts']) : null }))
}

/** Full messages by id, for the few a request actually carries. */
export function findMessages(db: Db, ids: readonly string[]): Map<string, ChatMessage> {
  const out = new Map<string, ChatMessage>()
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500)
    for (const row of db.select().from(chatMessages).where(inArray(chatMessages.id, batch)).all()) out.set(row.id, toChatMessage(row))
  }
  return out
}
