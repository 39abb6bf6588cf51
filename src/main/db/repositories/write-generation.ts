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
  sessions: Map<
    string,
    { generation: number; recent: Array<{ generation: number; seq: number; counts?: readonly CountChange[] }> }
  >
}

/** A message's new token count; nothing else of it changed (a recount for another model). */
export interface CountChange {
  seq: number
  /** Whether the message is in the request history (what the context totals sum). */
  inHistory: boolean
  from: { counter: string | null; tokens: number | null }
  to: { counter: string; tokens: number }
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

/**
 * Records new token counts of a chat's messages. Caches of what the rows say may patch these in
 * place instead of reading the messages again: a model switch's recount writes thousands of them
 * while the meter keeps asking for the context.
 */
export function noteCounts(db: Db, sessionId: string, counts: readonly CountChange[]): void {
  if (counts.length === 0) return
  noteWrite(db, sessionId, Number.POSITIVE_INFINITY)
  writesOf(db).sessions.get(sessionId)!.recent.at(-1)!.counts = counts
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

/**
 * The lowest message seq any write since `mark` may have touched (a write may touch its seq and
 * everything after it): +Infinity when nothing was, -Infinity when it cannot be known (another
 * connection wrote, or the writes are older than what is remembered). New token counts touch
 * nothing else of a message: they are not in `lowest` but listed in `counts`, oldest first.
 */
export function lowestTouchedSince(
  db: Db,
  sessionId: string,
  mark: WriteMark
): { now: WriteMark; lowest: number; counts: CountChange[] } {
  const now = writeMark(db, sessionId)
  if (now.connection !== mark.connection) return { now, lowest: Number.NEGATIVE_INFINITY, counts: [] }
  if (now.generation === mark.generation) return { now, lowest: Number.POSITIVE_INFINITY, counts: [] }
  const since = (writesOf(db).sessions.get(sessionId)?.recent ?? []).filter((r) => r.generation > mark.generation)
  if (since.length < now.generation - mark.generation) return { now, lowest: Number.NEGATIVE_INFINITY, counts: [] }
  let lowest = Number.POSITIVE_INFINITY
  const counts: CountChange[] = []
  for (const r of since) {
    if (r.counts) counts.push(...r.counts)
    else lowest = Math.min(lowest, r.seq)
  }
  return { now, lowest, counts }
}
