import Database from 'better-sqlite3'
import type { MessagePart } from '../../shared/domain/chat-message'
import { plainText } from '../tokens/render'

/** Ids per query: well under SQLite's bound-parameter limit. */
const BATCH = 500

/**
 * Reads messages' text on the worker thread from its own read-only connection (WAL lets it read while
 * the main process writes), so the main thread neither loads nor copies a long span's text. The text
 * is the one the conversation reader derives (plainText of the stored parts).
 */
export function messageTextReader(dbFile: string) {
  let db: Database.Database | undefined
  return (ids: string[]): Map<string, string> => {
    db ??= new Database(dbFile, { readonly: true, fileMustExist: true })
    const out = new Map<string, string>()
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH)
      const rows = db
        .prepare(`SELECT id, role, parts FROM chat_messages WHERE id IN (${batch.map(() => '?').join(', ')})`)
        .all(...batch) as Array<{ id: string; role: 'user' | 'assistant' | 'system' | 'tool'; parts: string }>
      for (const r of rows) out.set(r.id, plainText({ role: r.role, parts: JSON.parse(r.parts) as MessagePart[] }))
    }
    return out
  }
}
