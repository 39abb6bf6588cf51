import type { Statement } from 'better-sqlite3'
import { desc, eq, sql } from 'drizzle-orm'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Db } from '../client'
import { chatImports, sessions } from '../schema'
import { partsColumns } from './messages/messages-repo'
import { sqliteClient } from './sqlite-client'
import { noteWrite } from './write-generation'

export interface ImportRecord {
  sessionId: string
  title: string
  importedAt: number
}

/** The latest chat imported with this content hash (and not deleted since), if any. */
export function findImport(db: Db, contentHash: string): ImportRecord | undefined {
  return db
    .select({ sessionId: chatImports.sessionId, title: sessions.title, importedAt: chatImports.importedAt })
    .from(chatImports)
    .innerJoin(sessions, eq(sessions.id, chatImports.sessionId))
    .where(eq(chatImports.contentHash, contentHash))
    .orderBy(desc(chatImports.importedAt))
    .get()
}

export function recordImport(
  db: Db,
  row: { sessionId: string; contentHash: string; source: string; importedAt: number }
): void {
  db.insert(chatImports).values(row).run()
}

/**
 * Runs `work` in one transaction that may span turns of the event loop (a chat written a statement
 * per turn): committed when it resolves, rolled back when it throws; a crash leaves nothing of it.
 * Only for a process whose connection does nothing else meanwhile (`distill import`): any other
 * write in between would join the transaction.
 */
export async function inImportTransaction<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const client = sqliteClient(db)
  client.exec('BEGIN IMMEDIATE')
  try {
    const result = await work()
    // The commit (the chat's pages into the log) on a turn of its own, not after the last statement.
    await new Promise((resolve) => setImmediate(resolve))
    client.exec('COMMIT')
    return result
  } catch (err) {
    if (client.inTransaction) client.exec('ROLLBACK')
    throw err
  }
}

export interface ImportedRow {
  id: string
  role: ChatMessage['role']
  parts: ChatMessage['parts']
  createdAt: number
  /** Counted before the insert, so the row is written once and never updated. */
  tokenCount: number
  tokenCounter: string
}

const COLUMNS = [
  'id',
  'session_id',
  'seq',
  'role',
  'parts',
  'status',
  'token_count',
  'token_counter',
  'created_at',
  'part_count',
  'has_tool_parts'
]

/**
 * Rows per INSERT statement: under SQLite's 32,766 parameters. Each statement opens a savepoint, at
 * which FTS5 flushes its pending terms to a new segment: with one statement per row, merging those
 * segments made 100,000 messages take 32 s to write instead of 4 s.
 */
const MAX_PARAMS = 25_000

/**
 * Writes rows of `chat_messages` by multi-row INSERTs of the given columns (one value per column,
 * in order), calling `onWritten` with the rows written so far after each statement.
 */
function insertMessageRows(
  db: Db,
  columns: readonly string[],
  rows: Iterable<unknown[]>,
  onWritten?: (done: number) => void
): number {
  const client = sqliteClient(db)
  const statements = new Map<number, Statement>()
  const chunk = Math.floor(MAX_PARAMS / columns.length)
  const values = `(${columns.map(() => '?').join(', ')})`
  let written = 0
  let params: unknown[] = []
  const flush = () => {
    const n = params.length / columns.length
    if (n === 0) return
    let insert = statements.get(n)
    if (!insert)
      statements.set(
        n,
        (insert = client.prepare(
          `INSERT INTO chat_messages (${columns.join(', ')}) VALUES ${Array(n).fill(values).join(', ')}`
        ))
      )
    insert.run(params)
    params = []
    onWritten?.(written)
  }
  for (const row of rows) {
    params.push(...row)
    if (++written % chunk === 0) flush()
  }
  flush()
  return written
}

/**
 * Appends the messages of a chat just created, each written once (count included) by a multi-row
 * INSERT: seqs are assigned here (1, 2, …), never read back with max(seq). Call inside the chat's
 * transaction.
 */
export function insertImportedMessages(
  db: Db,
  sessionId: string,
  rows: Iterable<ImportedRow>,
  onWritten?: (done: number) => void,
  /** The seq of the first row (a chat written in several statements continues its seqs). */
  firstSeq = 1
): number {
  let seq = firstSeq - 1
  const values = (function* () {
    for (const row of rows) {
      const { partCount, hasToolParts } = partsColumns(row.parts)
      yield [
        row.id,
        sessionId,
        ++seq,
        row.role,
        JSON.stringify(row.parts),
        'complete',
        row.tokenCount,
        row.tokenCounter,
        row.createdAt,
        partCount,
        hasToolParts ? 1 : 0
      ]
    }
  })()
  const written = insertMessageRows(db, COLUMNS, values, onWritten)
  noteWrite(db, sessionId)
  return written
}

/** A message of a Distill export as it is written back: its own seq, status and versions. */
export interface RestoredRow extends ImportedRow {
  seq: number
  status: ChatMessage['status']
  error: ChatMessage['error']
  inputTokens: number | null
  outputTokens: number | null
  versionGroup: string | null
  hiddenIn: string | null
  /** When the message was pinned (exports carry it), or null. */
  pinnedAt?: number | null
}

const RESTORED_COLUMNS = [
  ...COLUMNS,
  'error',
  'input_tokens',
  'output_tokens',
  'version_group',
  'hidden_in',
  'pinned_at'
]

/** Writes a restored chat's messages, every version included, with the seqs given. Call inside the chat's transaction. */
export function insertRestoredMessages(db: Db, sessionId: string, rows: Iterable<RestoredRow>): number {
  const values = (function* () {
    for (const r of rows) {
      const { partCount, hasToolParts } = partsColumns(r.parts)
      yield [
        r.id,
        sessionId,
        r.seq,
        r.role,
        JSON.stringify(r.parts),
        r.status,
        r.tokenCount,
        r.tokenCounter,
        r.createdAt,
        partCount,
        hasToolParts ? 1 : 0,
        r.error ? JSON.stringify(r.error) : null,
        r.inputTokens,
        r.outputTokens,
        r.versionGroup,
        r.hiddenIn,
        r.pinnedAt ?? null
      ]
    }
  })()
  const written = insertMessageRows(db, RESTORED_COLUMNS, values)
  noteWrite(db, sessionId)
  return written
}

/**
 * Removes the rows of files an import stored before it failed, unless a message references them
 * (another chat may have attached the same bytes meanwhile). Returns the hashes removed, whose
 * bytes the caller deletes.
 */
export function discardUnreferencedFiles(db: Db, hashes: readonly string[]): string[] {
  if (hashes.length === 0) return []
  return db
    .all<{ hash: string }>(
      sql`DELETE FROM attachments WHERE hash IN (${sql.join(
        hashes.map((h) => sql`${h}`),
        sql`, `
      )})
      AND NOT EXISTS (SELECT 1 FROM message_attachments r WHERE r.hash = attachments.hash) RETURNING hash`
    )
    .map((r) => r.hash)
}
