import type { Db } from '../client'
import { sqliteClient } from './sqlite-client'

/**
 * Remembers the writes this process makes to each chat's messages and snapshots, so a cache of
 * derived values (context totals) can tell whether it is stale without reading the rows again.
 * Commits by other connections are seen through SQLite's `data_version`, which changes only when
 * another connection wrote.
 */
interface Writes {
  /** Bumped by writes that may touch any chat. */
  all: number
  sessions: Map<string, { generation: number; recent: Array<{ generation: number; seq: number }> }>
}

/** Writes remembered per chat with their seq; an older cache entry is simply recomputed. */
const RECENT_WRITES = 1024

const byConnection = new WeakMap<object, Writes>()

function writesOf(db: Db): Writes {
  const client = sqliteClient(db)
  let w = byConnection.get(client)
  if (!w) byConnection.set(client, (w = { all: 0, sessions: new Map() }))
  return w
}

/**
 * Records a write to a chat (no chat: to every chat). `seq` is the message written; a write that is
 * not to one message (a snapshot, several messages) passes none and counts as touching all of them.
 */
export function noteWrite(db: Db, sessionId?: string, seq = Number.NEGATIVE_INFINITY): void {
  const w = writesOf(db)
  if (sessionId === undefined) {
    w.all++
    return
  }
  let s = w.sessions.get(sessionId)
  if (!s) w.sessions.set(sessionId, (s = { generation: 0, recent: [] }))
  s.generation++
  s.recent.push({ generation: s.generation, seq })
  if (s.recent.length > RECENT_WRITES * 2) s.recent.splice(0, s.recent.length - RECENT_WRITES)
}

/** A point in a chat's writes: what a cache entry was computed at. */
export interface WriteMark {
  connection: string
  generation: number
}

export function writeMark(db: Db, sessionId: string): WriteMark {
  const w = writesOf(db)
  const dataVersion = sqliteClient(db).pragma('data_version', { simple: true }) as number
  return { connection: `${dataVersion}:${w.all}`, generation: w.sessions.get(sessionId)?.generation ?? 0 }
}

/** Whether no write since `mark` touched a message with seq ≤ `uptoSeq` (the chat's older messages). */
export function unchangedUpTo(db: Db, sessionId: string, mark: WriteMark, uptoSeq: number): boolean {
  return lowestTouchedSince(db, sessionId, mark).lowest > uptoSeq
}

/**
 * The lowest message seq any write since `mark` may have touched (a write may touch its seq and
 * everything after it): +Infinity when nothing was, -Infinity when it cannot be known (another
 * connection wrote, or the writes are older than what is remembered).
 */
export function lowestTouchedSince(db: Db, sessionId: string, mark: WriteMark): { now: WriteMark; lowest: number } {
  const now = writeMark(db, sessionId)
  if (now.connection !== mark.connection) return { now, lowest: Number.NEGATIVE_INFINITY }
  if (now.generation === mark.generation) return { now, lowest: Number.POSITIVE_INFINITY }
  const since = (writesOf(db).sessions.get(sessionId)?.recent ?? []).filter((r) => r.generation > mark.generation)
  if (since.length < now.generation - mark.generation) return { now, lowest: Number.NEGATIVE_INFINITY }
  return { now, lowest: Math.min(...since.map((r) => r.seq)) }
}
