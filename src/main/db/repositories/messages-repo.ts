import { asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type Database from 'better-sqlite3'
import type { Statement } from 'better-sqlite3'
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
/** The derived columns that let context accounting skip reading `parts`. */
export function partsColumns(parts: ChatMessage['parts']) {
  return { partCount: parts.length, hasToolParts: parts.some((p) => p.type === 'tool-call' || p.type === 'tool-result') }
}

export function appendMessage(db: Db, row: Omit<NewChatMessageRow, 'seq' | 'rid' | 'partCount' | 'hasToolParts'>): ChatMessage {
  const next = db
    .select({ seq: sql<number>`coalesce(max(${chatMessages.seq}), 0) + 1` })
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, row.sessionId))
    .get()
  const inserted = db
    .insert(chatMessages)
    .values({ ...row, ...partsColumns(row.parts), seq: next?.seq ?? 1 })
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
  const row = db
    .update(chatMessages)
    .set(patch.parts ? { ...patch, ...partsColumns(patch.parts) } : patch)
    .where(eq(chatMessages.id, id))
    .returning()
    .get()
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
type HeadRow = Omit<MessageHead, 'toolParts'> & { hasToolParts: number }

const HEADS_SQL = `
  SELECT id, seq, role, status, token_count AS tokenCount, token_counter AS tokenCounter,
         created_at AS createdAt, part_count AS partCount, has_tool_parts AS hasToolParts
    FROM chat_messages INDEXED BY chat_messages_context_idx
   WHERE session_id = ? AND seq > ? AND seq < ?
     AND (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND part_count > 0))
   ORDER BY seq`

/** One prepared statement per connection: this query runs on every keystroke's meter update. */
const headStatements = new WeakMap<object, Statement<unknown[], HeadRow>>()

export function listHistoryHeads(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): MessageHead[] {
  // Served by chat_messages_context_idx alone: no message text is read. Straight through
  // better-sqlite3, since drizzle's row mapping costs more than the query at 10,000 rows.
  const client = (db as unknown as { $client: Database.Database }).$client
  let statement = headStatements.get(client)
  if (!statement) {
    statement = client.prepare<unknown[], HeadRow>(HEADS_SQL)
    headStatements.set(client, statement)
  }
  const rows = statement.all(sessionId, afterSeq, Number.isFinite(beforeSeq) ? beforeSeq : Number.MAX_SAFE_INTEGER)
  const toolIds = rows.filter((r) => r.hasToolParts).map((r) => r.id)
  const toolParts = toolIds.length ? findMessages(db, toolIds) : new Map<string, ChatMessage>()
  return rows.map(({ hasToolParts: _h, ...r }) => ({ ...r, toolParts: toolParts.get(r.id)?.parts ?? null }))
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
