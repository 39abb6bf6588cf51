import { DATED_LOOKBACK, datedOpeningsBefore, type RecallRow } from '../../db/repositories/search-repo'
import { passageDay, statedDate, type StatedDate } from '../../engine/recall/recall-date'
import type { Db } from '../../db/client'

type Found = { date: StatedDate; createdAt: number }

/**
 * What a chat's dater has read so far: the messages found to state a date, and the seq ranges
 * already read for them. Most chats state no dates at all, so the common answer is "none within
 * DATED_LOOKBACK": remembering which ranges were read lets passages close to each other (a hit and
 * its neighbours, the hits of the next keystroke) read each message once instead of once per passage.
 */
export interface StatedDates {
  openings: Map<number, Found>
  /** Inclusive [from, to] seq ranges already read, sorted and disjoint. */
  read: Array<[number, number]>
}

export const statedDates = (): StatedDates => ({ openings: new Map(), read: [] })

/** Openings read per statement: the nearest one usually states the date, so a small batch mostly ends the search. */
const BATCH = 8

function markRead(read: Array<[number, number]>, from: number, to: number): void {
  read.push([from, to])
  read.sort((a, b) => a[0] - b[0])
  let w = 0
  for (const r of read) {
    const last = read[w - 1]
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1])
    else read[w++] = r
  }
  read.length = w
}

/** The nearest message at or before `seq` (within DATED_LOOKBACK) that states a date, reading only what was not read before. */
function nearestStated(db: Db, sessionId: string, known: StatedDates, seq: number): Found | undefined {
  const floor = seq - DATED_LOOKBACK + 1
  let top = seq
  while (top >= floor) {
    const range = known.read.find(([from, to]) => from <= top && top <= to)
    if (range) {
      for (let s = top; s >= Math.max(range[0], floor); s--) {
        const found = known.openings.get(s)
        if (found) return found
      }
      top = range[0] - 1
      continue
    }
    const below = known.read.reduce((end, [, to]) => (to < top ? Math.max(end, to) : end), -Infinity)
    const from = Math.max(floor, below + 1)
    const rows = datedOpeningsBefore(db, sessionId, top, BATCH, from - 1)
    for (const row of rows) {
      const date = statedDate(row.head)
      if (date) {
        const found = { date, createdAt: row.createdAt }
        known.openings.set(row.seq, found)
        markRead(known.read, row.seq, top)
        return found
      }
    }
    const end = rows.length < BATCH ? from : rows.at(-1)!.seq
    markRead(known.read, end, top)
    top = end - 1
  }
  return undefined
}

/** Dates for a chat's messages: a date stated at the start of the nearest earlier message, else createdAt. */
export function passageDater(db: Db, sessionId: string, known: StatedDates) {
  return (row: Pick<RecallRow, 'seq' | 'createdAt'>): StatedDate =>
    passageDay(row, nearestStated(db, sessionId, known, row.seq))
}
