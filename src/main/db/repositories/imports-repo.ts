import type { Statement } from 'better-sqlite3'
import { desc, eq } from 'drizzle-orm'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Db } from '../client'
import { chatImports, sessions } from '../schema'
import { partsColumns } from './messages-repo'
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

export function recordImport(db: Db, row: { sessionId: string; contentHash: string; source: string; importedAt: number }): void {
  db.insert(chatImports).values(row).run()
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

const COLUMNS = `(id, session_id, seq, role, parts, status, token_count, token_counter, created_at, part_count, has_tool_parts)`
const VALUES = `(?, ?, ?, ?, ?, 'complete', ?, ?, ?, ?, ?)`

/** Parameters a row binds (status is a constant). */
const PER_ROW = 10
/**
 * Rows per INSERT statement (25,000 parameters, under SQLite's 32,766). Each statement opens a
 * savepoint, at which FTS5 flushes its pending terms to a new segment: with one statement per row,
 * merging those segments made 100,000 messages take 32 s to write instead of 4 s.
 */
const CHUNK = 2_500

/**
 * Appends the messages of a chat just created, each written once (count included) by a multi-row
 * INSERT: seqs are assigned here (1, 2, …), never read back with max(seq). Call inside the chat's
 * transaction.
 */
export function insertImportedMessages(db: Db, sessionId: string, rows: Iterable<ImportedRow>, onWritten?: (done: number) => void): number {
  const client = sqliteClient(db)
  const statements = new Map<number, Statement>()
  let seq = 0
  let params: unknown[] = []
  const flush = () => {
    const n = params.length / PER_ROW
    if (n === 0) return
    let insert = statements.get(n)
    if (!insert) statements.set(n, (insert = client.prepare(`INSERT INTO chat_messages ${COLUMNS} VALUES ${Array(n).fill(VALUES).join(', ')}`)))
    insert.run(params)
    params = []
    onWritten?.(seq)
  }
  for (const row of rows) {
    const { partCount, hasToolParts } = partsColumns(row.parts)
    params.push(row.id, sessionId, ++seq, row.role, JSON.stringify(row.parts), row.tokenCount, row.tokenCounter, row.createdAt, partCount, hasToolParts ? 1 : 0)
    if (seq % CHUNK === 0) flush()
  }
  flush()
  noteWrite(db, sessionId)
  return seq
}
