import { and, asc, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import type { Statement } from 'better-sqlite3'
import type { Db } from '../../client'
import { chatMessages, type ChatMessageRow, type NewChatMessageRow } from '../../schema'
import { sqliteClient } from '../sqlite-client'
import { noteCounts, noteWrite, type CountChange } from '../write-generation'

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
    createdAt: row.createdAt,
    ...(row.sentCutTokens ? { sentCutTokens: row.sentCutTokens } : {}),
    ...(row.sentWithoutMessages ? { sentWithoutMessages: row.sentWithoutMessages } : {}),
    ...(row.pinnedAt !== null ? { pinnedAt: row.pinnedAt } : {}),
    ...(row.cacheReadTokens !== null && row.cacheReadTokens !== undefined
      ? { cacheReadTokens: row.cacheReadTokens }
      : {}),
    ...(row.cacheWriteTokens !== null && row.cacheWriteTokens !== undefined
      ? { cacheWriteTokens: row.cacheWriteTokens }
      : {})
  }
}

/**
 * Appends a message with the next seq of its session. Call inside a transaction when the caller
 * writes more than this one row; the unique (session_id, seq) index guards against races.
 */
/** The derived columns that let context accounting skip reading `parts`. */
export function partsColumns(parts: ChatMessage['parts']) {
  return {
    partCount: parts.length,
    hasToolParts: parts.some((p) => p.type === 'tool-call' || p.type === 'tool-result')
  }
}

/** A message as written: the repository numbers it and derives the columns of its parts. */
export type NewMessage = Omit<NewChatMessageRow, 'seq' | 'rid' | 'partCount' | 'hasToolParts'>

export function appendMessage(db: Db, row: NewMessage): ChatMessage {
  const next = db
    .select({ seq: sql<number>`coalesce(max(${chatMessages.seq}), 0) + 1` })
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, row.sessionId))
    .get()
  // The parts are not read back: a message of a million characters would cross from SQLite again.
  const { parts: _parts, ...columns } = getTableColumns(chatMessages)
  const inserted = db
    .insert(chatMessages)
    .values({ ...row, ...partsColumns(row.parts), seq: next?.seq ?? 1 })
    .returning(columns)
    .get()
  noteWrite(db, row.sessionId, inserted.seq)
  return toChatMessage({ ...inserted, parts: row.parts })
}

/** The conversation as it stands: the messages of the versions in use, in order. */
export function listMessages(db: Db, sessionId: string): ChatMessage[] {
  return db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), isNull(chatMessages.hiddenIn)))
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
  patch: Partial<
    Pick<
      NewChatMessageRow,
      | 'parts'
      | 'status'
      | 'error'
      | 'tokenCount'
      | 'tokenCounter'
      | 'inputTokens'
      | 'outputTokens'
      | 'cacheReadTokens'
      | 'cacheWriteTokens'
      | 'sentCutTokens'
      | 'sentWithoutMessages'
    >
  >
): ChatMessage | undefined {
  const row = db
    .update(chatMessages)
    .set(patch.parts ? { ...patch, ...partsColumns(patch.parts) } : patch)
    .where(eq(chatMessages.id, id))
    .returning()
    .get()
  if (row) noteWrite(db, row.sessionId, row.seq)
  return row ? toChatMessage(row) : undefined
}

/**
 * updateMessage for a message whose parts the caller holds and leaves unchanged: its other columns
 * are written and read back, its parts are not (a message of a million characters would cross from
 * SQLite and be parsed again for a note about it).
 */
export function updateMessageBesideParts(
  db: Db,
  id: string,
  parts: ChatMessage['parts'],
  patch: Partial<Pick<NewChatMessageRow, 'sentCutTokens' | 'sentWithoutMessages'>>
): ChatMessage | undefined {
  const { parts: _parts, ...columns } = getTableColumns(chatMessages)
  const row = db.update(chatMessages).set(patch).where(eq(chatMessages.id, id)).returning(columns).get()
  if (row) noteWrite(db, row.sessionId, row.seq)
  return row ? toChatMessage({ ...row, parts }) : undefined
}

/**
 * Stores a message's count, reading nothing back: updateMessage returns the whole row, and reading
 * the parts of a message of a million characters back took 10-15 ms for a 0.3 ms write.
 */
export function storeMessageCount(db: Db, id: string, count: { tokens: number; counter: string }): void {
  const row = prepared<{ sessionId: string; seq: number }>(
    db,
    'UPDATE chat_messages SET token_count = ?, token_counter = ? WHERE id = ? RETURNING session_id AS sessionId, seq'
  ).get(count.tokens, count.counter, id)
  if (row) noteWrite(db, row.sessionId, row.seq)
}

/**
 * Stores new token counts of a chat's messages (a recount for another model). Only the counts
 * change, so the write is noted as such: the context caches patch them in instead of re-reading.
 */
export function storeCounts(
  db: Db,
  sessionId: string,
  counts: ReadonlyArray<{
    id: string
    from: { counter: string | null; tokens: number | null }
    to: { counter: string; tokens: number }
  }>
): void {
  const update = prepared<{ seq: number; inHistory: number }>(
    db,
    // Only over the count it was made from: a message counted again meanwhile (written, edited, or
    // recounted for the next model) keeps its newer count, and the totals move by no stale difference.
    `UPDATE chat_messages SET token_count = ?, token_counter = ?
     WHERE id = ? AND session_id = ? AND token_count IS ? AND token_counter IS ?
     RETURNING seq, (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND part_count > 0)) AS inHistory`
  )
  const changes: CountChange[] = []
  for (const c of counts) {
    const row = update.get(c.to.tokens, c.to.counter, c.id, sessionId, c.from.tokens, c.from.counter)
    if (row) changes.push({ seq: row.seq, inHistory: row.inHistory === 1, from: c.from, to: c.to })
  }
  noteCounts(db, sessionId, changes)
}

export function lastMessage(db: Db, sessionId: string): ChatMessage | undefined {
  const row = db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), isNull(chatMessages.hiddenIn)))
    .orderBy(desc(chatMessages.seq))
    .limit(1)
    .get()
  return row ? toChatMessage(row) : undefined
}

/** Replies that were streaming when the app stopped: keep what arrived, marked as interrupted. */
export function markInterruptedReplies(db: Db, error: { code: string; message: string }): number {
  noteWrite(db)
  return db.update(chatMessages).set({ status: 'aborted', error }).where(eq(chatMessages.status, 'streaming')).run()
    .changes
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

/** The request history in (afterSeq, beforeSeq) as heads; parts stay in the database. */
type HeadRow = Omit<MessageHead, 'toolParts'> & { hasToolParts: number }

const HEADS_COLUMNS = `id, seq, role, status, token_count AS tokenCount, token_counter AS tokenCounter,
         created_at AS createdAt, part_count AS partCount, has_tool_parts AS hasToolParts`
/** Complete messages, and replies the user stopped that hold text: what a request carries. */
const HISTORY_WHERE = `session_id = ? AND seq > ? AND seq < ? AND hidden_in IS NULL
     AND (status = 'complete' OR (status = 'aborted' AND role = 'assistant' AND part_count > 0))`

const HEADS_SQL = `SELECT ${HEADS_COLUMNS} FROM chat_messages INDEXED BY chat_messages_context_idx WHERE ${HISTORY_WHERE} ORDER BY seq`
const HEADS_PAGE_SQL = `${HEADS_SQL} LIMIT ?`
const NEWEST_HEADS_SQL = `SELECT ${HEADS_COLUMNS} FROM chat_messages INDEXED BY chat_messages_context_idx WHERE ${HISTORY_WHERE} ORDER BY seq DESC LIMIT ?`
const TOTALS_SQL = `SELECT token_counter AS counter, count(*) AS messages, coalesce(sum(token_count), 0) AS tokens,
         count(token_count) AS counted
    FROM chat_messages INDEXED BY chat_messages_context_idx WHERE ${HISTORY_WHERE} GROUP BY token_counter`

/** One prepared statement per connection and query: these run on every keystroke's meter update. */
const statements = new WeakMap<object, Map<string, Statement<unknown[], unknown>>>()

export function prepared<Row>(db: Db, source: string): Statement<unknown[], Row> {
  // Straight through better-sqlite3: drizzle's row mapping costs more than the query at 10,000 rows.
  const client = sqliteClient(db)
  let byText = statements.get(client)
  if (!byText) statements.set(client, (byText = new Map()))
  let statement = byText.get(source)
  if (!statement) byText.set(source, (statement = client.prepare<unknown[], unknown>(source)))
  return statement as Statement<unknown[], Row>
}

const upper = (beforeSeq: number) => (Number.isFinite(beforeSeq) ? beforeSeq : Number.MAX_SAFE_INTEGER)

function withToolParts(db: Db, rows: HeadRow[]): MessageHead[] {
  const toolIds = rows.filter((r) => r.hasToolParts).map((r) => r.id)
  const toolParts = findMessageParts(db, toolIds)
  // Fields named one by one: a rest-and-spread per head was a tenth of a 100,000-message chat's first request.
  return rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    role: r.role,
    status: r.status,
    tokenCount: r.tokenCount,
    tokenCounter: r.tokenCounter,
    createdAt: r.createdAt,
    partCount: r.partCount,
    toolParts: r.hasToolParts ? (toolParts.get(r.id)?.parts ?? null) : null
  }))
}

/** Served by chat_messages_context_idx alone: no message text is read. */
export function listHistoryHeads(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): MessageHead[] {
  return withToolParts(db, prepared<HeadRow>(db, HEADS_SQL).all(sessionId, afterSeq, upper(beforeSeq)))
}

/** The oldest `limit` heads of the request history in (afterSeq, beforeSeq): one page of a walk forward by seq. */
export function listHistoryHeadsPage(
  db: Db,
  sessionId: string,
  afterSeq: number,
  beforeSeq: number,
  limit: number
): MessageHead[] {
  return withToolParts(db, prepared<HeadRow>(db, HEADS_PAGE_SQL).all(sessionId, afterSeq, upper(beforeSeq), limit))
}

/** The newest `limit` heads of the request history in (afterSeq, beforeSeq), newest first. */
export function listNewestHistoryHeads(
  db: Db,
  sessionId: string,
  afterSeq: number,
  beforeSeq: number,
  limit: number
): MessageHead[] {
  return withToolParts(db, prepared<HeadRow>(db, NEWEST_HEADS_SQL).all(sessionId, afterSeq, upper(beforeSeq), limit))
}

/** Stored counts of the request history in (afterSeq, beforeSeq), per counter, in one aggregate query. */
export interface HistoryTotal {
  counter: string | null
  messages: number
  tokens: number
  /** Messages with a stored count (the others were never counted). */
  counted: number
}

/** The newest seq of a chat (0: no messages). */
export function newestSeq(db: Db, sessionId: string): number {
  return (
    prepared<{ seq: number | null }>(db, 'SELECT max(seq) AS seq FROM chat_messages WHERE session_id = ?').get(
      sessionId
    )?.seq ?? 0
  )
}

export function historyTotals(db: Db, sessionId: string, afterSeq: number, beforeSeq: number): HistoryTotal[] {
  return prepared<HistoryTotal>(db, TOTALS_SQL).all(sessionId, afterSeq, upper(beforeSeq))
}

// Straight through better-sqlite3 with the ids as one JSON array: a request reads a thousand rows
// here, and drizzle's row mapping cost more than the query (the first request at 100,000 messages).
const FIND_SQL = `SELECT id, session_id AS sessionId, seq, role, parts, status, error, token_count AS tokenCount,
         token_counter AS tokenCounter, input_tokens AS inputTokens, output_tokens AS outputTokens,
         created_at AS createdAt, sent_cut_tokens AS sentCutTokens, sent_without_messages AS sentWithoutMessages,
         pinned_at AS pinnedAt, rid, version_group AS versionGroup, hidden_in AS hiddenIn, part_count AS partCount,
         has_tool_parts AS hasToolParts
    FROM chat_messages WHERE id IN (SELECT value FROM json_each(?))`

/** What a request carries of a message: the columns stored before and with its parts. */
export type MessageParts = Pick<ChatMessage, 'id' | 'sessionId' | 'seq' | 'role' | 'parts'>

// Only the columns up to `parts`: SQLite reads a column stored after a long text by walking that
// text's overflow pages, which made the other columns cost several times the parts themselves.
const PARTS_SQL = `SELECT id, session_id AS sessionId, seq, role, parts FROM chat_messages
    WHERE id IN (SELECT value FROM json_each(?))`

/** The parts of messages by id: what a request sends of the messages it carries. */
export function findMessageParts(db: Db, ids: readonly string[]): Map<string, MessageParts> {
  const out = new Map<string, MessageParts>()
  if (ids.length === 0) return out
  for (const row of prepared<Omit<MessageParts, 'parts'> & { parts: string }>(db, PARTS_SQL).all(JSON.stringify(ids)))
    out.set(row.id, { ...row, parts: JSON.parse(row.parts) as MessageParts['parts'] })
  return out
}

/** Full messages by id, for the few a request actually carries. */
export function findMessages(db: Db, ids: readonly string[]): Map<string, ChatMessage> {
  const out = new Map<string, ChatMessage>()
  if (ids.length === 0) return out
  type Raw = Omit<ChatMessageRow, 'parts' | 'error' | 'hasToolParts'> & {
    parts: string
    error: string | null
    hasToolParts: number
  }
  for (const row of prepared<Raw>(db, FIND_SQL).all(JSON.stringify(ids)))
    out.set(
      row.id,
      toChatMessage({
        ...row,
        parts: JSON.parse(row.parts) as ChatMessageRow['parts'],
        error: row.error === null ? null : (JSON.parse(row.error) as ChatMessageRow['error']),
        hasToolParts: row.hasToolParts === 1
      })
    )
  return out
}

/**
 * Messages of a chat's path before `beforeSeq` counted for neither of `counters` (or never
 * counted), newest first: a walk back by seq, so each page starts where the last one ended.
 */
export function staleCounted(
  db: Db,
  sessionId: string,
  counters: readonly [string, string],
  limit: number,
  beforeSeq = Number.POSITIVE_INFINITY
): Array<{ id: string; seq: number; tokenCount: number | null; tokenCounter: string | null }> {
  return prepared<{ id: string; seq: number; tokenCount: number | null; tokenCounter: string | null }>(
    db,
    `SELECT id, seq, token_count AS tokenCount, token_counter AS tokenCounter FROM chat_messages
      WHERE session_id = ? AND seq < ? AND hidden_in IS NULL AND (token_count IS NULL OR token_counter IS NULL OR token_counter NOT IN (?, ?))
      ORDER BY seq DESC LIMIT ?`
  ).all(sessionId, upper(beforeSeq), counters[0], counters[1], limit)
}

/** How many messages of a chat's path are counted for neither of `counters`. */
