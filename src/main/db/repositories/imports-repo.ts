import { desc, eq } from 'drizzle-orm'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Db } from '../client'
import { chatImports, chatMessages, sessions } from '../schema'
import { partsColumns, toChatMessage } from './messages-repo'

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

/** Rows per INSERT: well under SQLite's 32,766 bound parameters for 13 columns. */
const CHUNK = 500

/**
 * Appends the messages of a chat just created (so its seq starts at 1), many rows per statement:
 * an import of 100,000 messages takes seconds instead of a minute.
 */
export function insertImportedMessages(
  db: Db,
  sessionId: string,
  messages: ReadonlyArray<Pick<ChatMessage, 'id' | 'role' | 'parts' | 'createdAt'>>,
  onChunk?: (done: number) => void
): ChatMessage[] {
  const stored: ChatMessage[] = []
  for (let start = 0; start < messages.length; start += CHUNK) {
    const rows = messages.slice(start, start + CHUNK).map((m, i) => ({
      ...m,
      ...partsColumns(m.parts),
      sessionId,
      seq: start + i + 1,
      status: 'complete' as const
    }))
    for (const row of db.insert(chatMessages).values(rows).returning().all()) stored.push(toChatMessage(row))
    onChunk?.(stored.length)
  }
  return stored
}
