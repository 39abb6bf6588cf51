import { datedOpeningsBefore, type RecallRow } from '../../db/repositories/history-repo'
import { passageDay, statedDate, type StatedDate } from '../../engine/recall/recall-date'
import type { Db } from '../../db/client'

/** Dates stated at the start of earlier messages, by seq: what a chat's dater has read so far. */
export type StatedDates = Map<number, { date: StatedDate; createdAt: number } | undefined>

/** Dates for a chat's messages: a date stated at the start of the nearest earlier message, else createdAt. */
export function passageDater(db: Db, sessionId: string, stated: StatedDates) {
  return (row: Pick<RecallRow, 'seq' | 'createdAt'>): StatedDate => {
    if (!stated.has(row.seq)) {
      const parse = (openings: ReturnType<typeof datedOpeningsBefore>) =>
        openings.map((o) => ({ date: statedDate(o.head), createdAt: o.createdAt })).find((o) => o.date !== undefined)
      // The nearest opening usually states a date: reading further back only when it does not halves the cost.
      const nearest = datedOpeningsBefore(db, sessionId, row.seq, 1)
      const found = nearest.length ? (parse(nearest) ?? parse(datedOpeningsBefore(db, sessionId, row.seq))) : undefined
      stated.set(row.seq, found ? { date: found.date!, createdAt: found.createdAt } : undefined)
    }
    return passageDay(row, stated.get(row.seq))
  }
}
