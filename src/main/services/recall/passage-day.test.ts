import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import * as historyRepo from '../../db/repositories/search-repo'
import { passageDay, statedDate } from '../../engine/recall/recall-date'
import { useTestApps } from '../../../../test/support/test-apps'
import { passageDater, statedDates } from './passage-day'

const DAY = 86_400_000
const START = Date.UTC(2023, 4, 8)

describe('passage dates', () => {
  const open = useTestApps()

  it('are the dates stated nearest before each passage, however many passages ask and in what order', async () => {
    const app = open({ env: {} })
    const { id } = app.services.sessions.create()
    // 1,500 messages; every 37th of the first 1,000 opens with a stated date, some others only look
    // like one; the last 500 state none (most chats state none at all).
    const texts: string[] = []
    for (let i = 0; i < 1_500; i++) {
      const text =
        i % 37 === 0 && i < 1_000
          ? `(${(i % 27) + 1} May 2023) we met at the harbor ${i}`
          : i % 11 === 0
            ? `3 apples and a pear ${i}`
            : `plain talk ${i}`
      texts.push(text)
      await app.services.chat.append(id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text }],
        createdAt: START + i * 3_600_000
      })
    }
    const seqOf = new Map(app.services.chat.messages(id).map((m, i) => [m.seq, i]))
    // The answer read message by message: the nearest stated date within the lookback.
    const naive = (seq: number) => {
      for (let s = seq; s > seq - historyRepo.DATED_LOOKBACK && s >= 1; s--) {
        const i = seqOf.get(s)
        const date = i === undefined ? undefined : statedDate(texts[i]!)
        if (date) return { date, createdAt: START + i! * 3_600_000 }
      }
      return undefined
    }
    const db = app.database.db
    const seqs = [...seqOf.keys()]
    await fc.assert(
      fc.property(fc.array(fc.constantFrom(...seqs), { minLength: 1, maxLength: 60 }), (asked) => {
        const dater = passageDater(db, id, statedDates())
        for (const seq of asked) {
          const createdAt = START + seqOf.get(seq)! * 3_600_000
          expect(dater({ seq, createdAt })).toEqual(passageDay({ createdAt }, naive(seq)))
        }
      }),
      { numRuns: 40 }
    )
    // Close passages read the messages between them once, where no date is stated too: after the
    // first passage's lookback (a few batches), each of 100 consecutive passages reads only itself,
    // instead of a lookback of 400 each; a second pass over the same seqs reads nothing.
    const dater = passageDater(db, id, statedDates())
    const spy = vi.spyOn(historyRepo, 'datedOpeningsBefore')
    const stretch = seqs.slice(1_200, 1_300)
    for (const seq of stretch) dater({ seq, createdAt: START + seqOf.get(seq)! * 3_600_000 })
    const spans = spy.mock.calls.map(([, , seq, , after]) => seq - after!)
    expect(spans.filter((span) => span > 1).length).toBeLessThanOrEqual(5)
    expect(spans.length).toBeLessThanOrEqual(stretch.length + 5)
    for (const seq of stretch) dater({ seq, createdAt: START + seqOf.get(seq)! * 3_600_000 + DAY })
    expect(spy.mock.calls.length).toBe(spans.length)
    spy.mockRestore()
  })
})
