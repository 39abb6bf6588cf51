import type { Db } from '../../db/client'
import {
  findMessageParts,
  listHistoryHeads,
  listNewestHistoryHeads,
  newestSeq,
  type MessageHead,
  type MessageParts
} from '../../db/repositories/messages/messages-repo'
import { lowestTouchedSince, writeMark, type CountChange, type WriteMark } from '../../db/repositories/write-generation'
import { plainText } from '../../tokens/render'

/**
 * The newest end of each chat's request history, kept in the process that owns the database, so a
 * request reads from SQLite only what was written since the last one. Every entry is checked
 * against the chat's write generations first: a write drops the heads and rows at or after the
 * lowest seq it touched (another connection's write drops the whole entry), and the gap is read
 * again. A chat's older messages are read only when a request reaches back to them.
 */
export interface MessageTailCache {
  /**
   * Request-history heads in (afterSeq, beforeSeq), newest first; older pages are read as the walk
   * reaches them. One walk at a time: starting another (or `rows`) may change what the first sees.
   */
  newest(sessionId: string, afterSeq: number, beforeSeq: number): Generator<MessageHead>
  /** Full rows of messages of the chat (those in the cache are not read again). */
  rows(sessionId: string, ids: readonly string[]): Map<string, MessageParts>
  /** The plain text of a row, computed once per stored row. */
  textOf(row: MessageParts): string
  /**
   * A message this process has just written, with the parts it holds: kept, so the next request
   * does not read it back (a message of a million characters: 5-17 ms of reading and parsing).
   * Call it after the write; a later write at or before its seq drops it as usual.
   */
  hold(row: MessageParts): void
}

interface Entry {
  mark: WriteMark
  /** Every request-history head with seq in (floor, top], oldest first. */
  heads: MessageHead[]
  floor: number
  top: number
  rows: Map<string, MessageParts>
}

/** Chats kept; the least recently used one is dropped beyond this. */
const CHATS = 16
/** Heads read per query when a walk goes below what is kept. */
const PAGE = 256

/** New counts (a recount for another model) patched into the kept heads (rows hold no counts), the newest count winning. */
function patchCounts(entry: Entry, counts: readonly CountChange[]): void {
  const bySeq = new Map(counts.map((c) => [c.seq, c.to]))
  entry.heads = entry.heads.map((h) => {
    const to = bySeq.get(h.seq)
    return to ? { ...h, tokenCount: to.tokens, tokenCounter: to.counter } : h
  })
}

export function createMessageTailCache(db: Db): MessageTailCache {
  const entries = new Map<string, Entry>()
  const texts = new WeakMap<MessageParts, string>()

  function fresh(sessionId: string, mark: WriteMark): Entry {
    const top = newestSeq(db, sessionId)
    return { mark, heads: [], floor: top, top, rows: new Map() }
  }

  /** The chat's entry, brought up to date with what was written since it was last used. */
  function current(sessionId: string): Entry {
    let entry = entries.get(sessionId)
    entries.delete(sessionId)
    if (!entry) {
      entry = fresh(sessionId, writeMark(db, sessionId))
    } else {
      const { now, lowest, counts } = lowestTouchedSince(db, sessionId, entry.mark)
      if (lowest === Number.NEGATIVE_INFINITY) entry = fresh(sessionId, now)
      else {
        entry.mark = now
        if (lowest <= entry.top) {
          entry.heads = entry.heads.filter((h) => h.seq < lowest)
          for (const [id, row] of entry.rows) if (row.seq >= lowest) entry.rows.delete(id)
          entry.top = lowest - 1
          entry.floor = Math.min(entry.floor, entry.top)
        }
        if (counts.length > 0) patchCounts(entry, counts)
      }
    }
    // What was appended since: one query over the newest seqs.
    const added = listHistoryHeads(db, sessionId, entry.top, Number.POSITIVE_INFINITY)
    if (added.length > 0) {
      entry.heads.push(...added)
      entry.top = added.at(-1)!.seq
    }
    entries.set(sessionId, entry)
    if (entries.size > CHATS) entries.delete(entries.keys().next().value!)
    return entry
  }

  function* newest(sessionId: string, afterSeq: number, beforeSeq: number): Generator<MessageHead> {
    const entry = current(sessionId)
    if (beforeSeq <= entry.floor) {
      // Further back than what is kept (an older point of the chat): read it without keeping it.
      for (let before = beforeSeq; ;) {
        const page = listNewestHistoryHeads(db, sessionId, afterSeq, before, PAGE)
        yield* page
        if (page.length < PAGE) return
        before = page.at(-1)!.seq
      }
    }
    let i = entry.heads.length - 1
    for (; i >= 0 && entry.heads[i]!.seq >= beforeSeq; i--);
    for (;;) {
      for (; i >= 0; i--) {
        const head = entry.heads[i]!
        if (head.seq <= afterSeq) return
        yield head
      }
      if (entry.floor <= afterSeq) return
      // Below what is kept: read the next page back and keep it (the walk may come back this far).
      const page = listNewestHistoryHeads(db, sessionId, afterSeq, Math.min(entry.floor + 1, beforeSeq), PAGE)
      const lowest = entry.floor
      if (page.length < PAGE) entry.floor = afterSeq
      else entry.floor = page.at(-1)!.seq - 1
      const older = page.filter((h) => h.seq <= lowest).reverse()
      entry.heads.unshift(...older)
      i = older.length - 1
    }
  }

  function rows(sessionId: string, ids: readonly string[]): Map<string, MessageParts> {
    const entry = current(sessionId)
    const out = new Map<string, MessageParts>()
    const missing: string[] = []
    for (const id of ids) {
      const row = entry.rows.get(id)
      if (row) out.set(id, row)
      else missing.push(id)
    }
    if (missing.length > 0) {
      for (const [id, row] of findMessageParts(db, missing)) {
        out.set(id, row)
        if (row.sessionId === sessionId && row.seq <= entry.top) entry.rows.set(id, row)
      }
    }
    return out
  }

  function textOf(row: MessageParts): string {
    let text = texts.get(row)
    if (text === undefined) texts.set(row, (text = plainText(row)))
    return text
  }

  function hold(row: MessageParts): void {
    const entry = current(row.sessionId)
    if (row.seq <= entry.top)
      entry.rows.set(row.id, { id: row.id, sessionId: row.sessionId, seq: row.seq, role: row.role, parts: row.parts })
  }

  return { newest, rows, textOf, hold }
}
