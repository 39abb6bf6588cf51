import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import type { Snapshot, SummaryContent } from '../../../shared/domain/snapshot'
import type { Db } from '../client'
import * as schema from '../schema'
import { checkChatIntegrity } from './chat-integrity'
import { appendMessage, type NewMessage } from './messages/messages-repo'
import { findImport, insertRestoredMessages, recordImport, type ImportRecord, type RestoredRow } from './imports-repo'
import { insertSession } from './sessions-repo'
import { insertSummary, setSnapshotStatus } from './snapshots-repo'

/**
 * A second connection to a database the app already opened (and migrated), for writing a large
 * import off the main thread: WAL lets the app keep reading meanwhile.
 */
export function openSecondConnection(file: string): {
  db: Db
  close(): void
  checkpoint(): void
  /** Writes a message at the end of its chat in a transaction of its own; the parts are not returned. */
  append(row: NewMessage): Omit<ChatMessage, 'parts'>
} {
  const sqlite = new Database(file, { fileMustExist: true })
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('synchronous = NORMAL')
  const db = drizzle(sqlite, { schema })
  return {
    db,
    close: () => sqlite.close(),
    // PASSIVE: copies what no reader still needs, never waiting for (or blocking) other writers.
    checkpoint: () => void sqlite.pragma('wal_checkpoint(PASSIVE)'),
    append: (row) => {
      const { parts: _parts, ...message } = db.transaction((tx) => appendMessage(tx, row))
      return message
    }
  }
}

/** A chat ready to write: new ids assigned, every reference already pointing at them. */
export interface ChatToRestore {
  session: Pick<
    Session,
    'id' | 'title' | 'provider' | 'modelId' | 'strategy' | 'autoCompress' | 'systemPrompt' | 'createdAt' | 'updatedAt'
  >
  messages: readonly RestoredRow[]
  snapshots: ReadonlyArray<{
    id: string
    kind: Snapshot['kind']
    status: Snapshot['status']
    content: SummaryContent
    messageCutoffId: string
    tokenCount: number
    createdAt: number
  }>
  import: { contentHash: string; source: string; importedAt: number }
  /** Write it even when the same content was imported before. */
  again: boolean
}

/**
 * Writes a restored chat in one transaction: the session, every message and version, its
 * summaries and its import record. Nothing is written when the same content was imported before
 * (checked inside the transaction) unless `again`: the earlier import is returned instead.
 */
export function restoreChat(db: Db, chat: ChatToRestore): { sessionId: string } | { earlier: ImportRecord } {
  return db.transaction((tx) => {
    const earlier = chat.again ? undefined : findImport(tx, chat.import.contentHash)
    if (earlier) return { earlier }
    insertSession(tx, { ...chat.session, archived: false })
    insertRestoredMessages(tx, chat.session.id, chat.messages)
    for (const snap of chat.snapshots) {
      insertSummary(tx, { ...snap, sessionId: chat.session.id })
      if (snap.status !== 'active') setSnapshotStatus(tx, snap.id, snap.status)
    }
    // Every id the copy's rows hold must name a row of the copy: else Undo there would change another chat.
    const problems = checkChatIntegrity(tx, chat.session.id)
    if (problems.length > 0) throw new Error(`The imported chat does not hold together: ${problems.join(' ')}`)
    recordImport(tx, { sessionId: chat.session.id, ...chat.import })
    return { sessionId: chat.session.id }
  })
}
