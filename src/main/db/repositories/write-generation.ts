import type { Db } from '../client'
import { sqliteClient } from './sqlite-client'

/**
 * Counts the writes this process makes per chat, so a cache of derived values (context totals) can
 * tell it is stale without reading the rows again. Commits by other connections are seen through
 * SQLite's `data_version`, which changes only when another connection wrote.
 */
interface Generations {
  all: number
  sessions: Map<string, number>
}

const byConnection = new WeakMap<object, Generations>()

function generations(db: Db): Generations {
  const client = sqliteClient(db)
  let g = byConnection.get(client)
  if (!g) {
    g = { all: 0, sessions: new Map() }
    byConnection.set(client, g)
  }
  return g
}

/** Records a write to a chat's messages or snapshots (no session: to every chat). */
export function noteWrite(db: Db, sessionId?: string): void {
  const g = generations(db)
  if (sessionId === undefined) g.all++
  else g.sessions.set(sessionId, (g.sessions.get(sessionId) ?? 0) + 1)
}

/** Changes whenever the chat's stored messages or snapshots may have changed. */
export function writeGeneration(db: Db, sessionId: string): string {
  const g = generations(db)
  const dataVersion = sqliteClient(db).pragma('data_version', { simple: true }) as number
  return `${dataVersion}:${g.all}:${g.sessions.get(sessionId) ?? 0}`
}
