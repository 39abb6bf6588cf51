import Database from 'better-sqlite3'
import type { MessagePart, MessageRole } from '../../../../shared/domain/chat-message'

/** Ids per query: well under SQLite's bound-parameter limit. */
const BATCH = 500

export interface StoredParts {
  id: string
  role: MessageRole
  parts: MessagePart[]
}

/**
 * Reads messages' stored parts by id from a read-only connection of its own, opened on first use (WAL
 * lets it read while the owner writes). The worker thread uses it so the main thread neither loads nor
 * copies a long span's text; plain better-sqlite3 keeps drizzle out of the worker's bundle.
 */
export function storedPartsReader(dbFile: string): (ids: string[]) => StoredParts[] {
  let db: Database.Database | undefined
  return (ids) => {
    db ??= new Database(dbFile, { readonly: true, fileMustExist: true })
    const out: StoredParts[] = []
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH)
      const rows = db
        .prepare(`SELECT id, role, parts FROM chat_messages WHERE id IN (${batch.map(() => '?').join(', ')})`)
        .all(...batch) as Array<{ id: string; role: MessageRole; parts: string }>
      for (const r of rows) out.push({ id: r.id, role: r.role, parts: JSON.parse(r.parts) as MessagePart[] })
    }
    return out
  }
}
