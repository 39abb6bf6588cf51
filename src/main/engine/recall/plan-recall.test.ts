import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planRecall, recallRoom, RECALL_PREFIX, type RecallCandidate, type RecallHit } from './plan-recall'
import { datesMentioned, passageDate, statedDate, STATED_DATE_REACH_MS } from './recall-date'

const count = (text: string) => Math.ceil(text.length / 4) + 3

function msg(seq: number, text: string, extra: Partial<RecallCandidate> = {}): RecallCandidate {
  return { id: `m${seq}`, seq, role: seq % 2 ? 'user' : 'assistant', text, date: `${seq} May 2023`, ...extra }
}
const hit = (seq: number, text: string, score: number): RecallHit => ({ ...msg(seq, text), score })

describe('planRecall', () => {
  it('brings hits back verbatim, dated and labelled with the speaker, in time order, with a neighbour for context', () => {
    const plan = planRecall({
      hits: [hit(40, 'The staging database listens on port 5433.', -9), hit(13, 'I adopted a cat called Miso.', -4)],
      // A reply's neighbour is the question before it; a question's is the answer after it.
      neighbours: [
        msg(41, 'Anything else?'),
        msg(39, 'Which port does staging use?'),
        msg(14, 'What a lovely name!'),
        msg(12, 'Unrelated.')
      ],
      budget: 400,
      countTokens: count
    })
    expect(plan.messageIds).toEqual(['m13', 'm14', 'm39', 'm40'])
    expect(plan.text.startsWith(RECALL_PREFIX)).toBe(true)
    // One heading per day, each passage under it with its speaker.
    expect(plan.text).toContain(
      '[13 May 2023]\nuser: I adopted a cat called Miso.\n\n[14 May 2023]\nassistant: What a lovely name!'
    )
    expect(plan.text).toContain('[40 May 2023]\nassistant: The staging database listens on port 5433.')
    expect(plan.text.indexOf('Miso')).toBeLessThan(plan.text.indexOf('5433'))
    expect(plan.tokens).toBe(count(plan.text))
    expect(plan.passages.find((p) => p.id === 'm39')?.contextFor).toBe('m40')
  })

  it('cuts an overly long hit in the middle with the [...N...] marker, keeping its start and end', () => {
    const long = `START ${'filler words here '.repeat(400)} END`
    const plan = planRecall({ hits: [hit(5, long, -5)], budget: 300, countTokens: count })
    expect(plan.passages).toHaveLength(1)
    expect(plan.passages[0]!.line).toMatch(/START[\s\S]*\[\.\.\.\d+\.\.\.\][\s\S]*END$/)
    expect(plan.passages[0]!.truncatedChars).toBeGreaterThan(0)
    expect(plan.tokens).toBeLessThanOrEqual(300)
  })

  it('does not repeat a hit twice, nor one the summary already quotes whole', () => {
    const plan = planRecall({
      hits: [
        hit(3, 'We chose PostgreSQL 16 for the ledger.', -8),
        hit(3, 'We chose PostgreSQL 16 for the ledger.', -8),
        hit(7, 'Deploys happen on Tuesdays at 10:00.', -7)
      ],
      budget: 400,
      countTokens: count,
      present: ['Summary: Deploys happen on Tuesdays at 10:00. Other things.']
    })
    expect(plan.messageIds).toEqual(['m3'])
  })

  it('ranks hits from a day the message asks about first', () => {
    const may3 = { year: 2023, month: 5, day: 3 }
    const plan = planRecall({
      hits: [
        { ...hit(10, 'We had dinner at the harbour, lovely evening.', -6), day: { year: 2023, month: 4, day: 1 } },
        { ...hit(20, 'Dinner with my mother tonight, she made soup.', -4), day: may3 }
      ],
      budget: 40 + count(RECALL_PREFIX),
      countTokens: count,
      mentioned: datesMentioned('Who did I have dinner with on May 3, 2023?')
    })
    expect(plan.messageIds).toEqual(['m20'])
  })

  it('prefers the own words of the person the message asks about', () => {
    // "What pets does Melanie have?" with Melanie the assistant: her own message, not the user's about pets.
    const hits = [
      { ...hit(10, 'Pets are such good company, I should get one.', -5), role: 'user' as const },
      { ...hit(11, 'We have two cats and a dog at home!', -4), role: 'assistant' as const }
    ]
    const budget = 30 + count(RECALL_PREFIX)
    expect(planRecall({ hits, budget, countTokens: count }).messageIds).toEqual(['m10'])
    expect(planRecall({ hits, budget, countTokens: count, speaker: 'assistant' }).messageIds).toEqual(['m11'])
  })

  it('ranks a hit that is part of an exchange about the topic above a lone mention', () => {
    const plan = planRecall({
      hits: [
        hit(3, 'The marathon is on my list someday.', -5),
        hit(20, 'Did you run the marathon in the end?', -4),
        hit(21, 'I ran the whole marathon in four hours!', -4)
      ],
      budget: 46 + count(RECALL_PREFIX),
      countTokens: count
    })
    expect(plan.messageIds).toEqual(['m20', 'm21'])
  })

  it('does not repeat the sentences the summary quotes, and dates only what it brings', () => {
    const dated: number[] = []
    const plan = planRecall({
      hits: [
        { ...hit(8, 'We moved to Lisbon in March. The new flat has a balcony facing the river.', -6), date: undefined }
      ],
      neighbours: [
        { ...msg(9, 'Is the balcony big enough for tomatoes?'), date: undefined },
        { ...msg(30, 'Unrelated.'), date: undefined }
      ],
      budget: 400,
      countTokens: count,
      present: ['- User: We moved to Lisbon in March (March 2023).'],
      dateOf: (c) => (dated.push(c.seq), { date: `${c.seq} March 2023` })
    })
    expect(plan.text).toContain('[8 March 2023]\nassistant: […] The new flat has a balcony facing the river.')
    expect(plan.text).not.toContain('We moved to Lisbon')
    expect(dated.sort((a, b) => a - b)).toEqual([8, 9])
  })

  it('brings back no passage that says nothing, hit or neighbour', () => {
    const plan = planRecall({
      hits: [hit(4, 'Thanks! Appreciate the offer.', -9), hit(7, 'The offer from the bakery is 32 hours a week.', -5)],
      neighbours: [msg(6, 'Bye!'), msg(8, 'Congrats, that sounds amazing!')],
      budget: 400,
      countTokens: count
    })
    expect(plan.messageIds).toEqual(['m7'])
  })

  it('recalls nothing without room or without hits', () => {
    expect(planRecall({ hits: [hit(1, 'something', -1)], budget: 5, countTokens: count }).messageIds).toEqual([])
    expect(planRecall({ hits: [], budget: 500, countTokens: count }).text).toBe('')
  })

  it('takes its share of U but never more than the request leaves free', () => {
    expect(recallRoom({ usable: 3379, usedTokens: 1500, percent: 15 })).toBe(506)
    expect(recallRoom({ usable: 3379, usedTokens: 3200, percent: 15 })).toBe(179)
    expect(recallRoom({ usable: 3379, usedTokens: 4000, percent: 15 })).toBe(0)
  })

  it('never exceeds its budget, whatever the hits (property)', () => {
    const arbHit = fc.record({
      seq: fc.integer({ min: 1, max: 60 }),
      text: fc.string({ maxLength: 3000 }),
      score: fc.double({ min: -20, max: -0.01, noNaN: true })
    })
    fc.assert(
      fc.property(fc.array(arbHit, { maxLength: 25 }), fc.integer({ min: 0, max: 1500 }), (raw, budget) => {
        const plan = planRecall({
          hits: raw.map((h) => hit(h.seq, h.text, h.score)),
          neighbours: raw.map((h) => msg(h.seq + 1, h.text.slice(0, 100))),
          budget,
          countTokens: count
        })
        expect(plan.tokens).toBeLessThanOrEqual(budget)
        if (plan.text) expect(count(plan.text)).toBe(plan.tokens)
        const seqs = plan.passages.map((p) => p.seq)
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
        expect(new Set(plan.messageIds).size).toBe(plan.messageIds.length)
      }),
      { numRuns: 200 }
    )
  })
})

describe('recall dates', () => {
  it('reads a date stated at the start of a message, in the common written forms', () => {
    expect(statedDate('(1:56 pm on 8 May, 2023) Hey Mel! Good to see you!')).toEqual({ year: 2023, month: 5, day: 8 })
    expect(statedDate('[10:30 am on 25 August, 2023] hi')).toEqual({ year: 2023, month: 8, day: 25 })
    expect(statedDate('March 3rd, 2024 — notes')).toEqual({ year: 2024, month: 3, day: 3 })
    expect(statedDate('Monday, 4 September 2023: standup')).toEqual({ year: 2023, month: 9, day: 4 })
    expect(statedDate('2023-05-08 meeting notes')).toEqual({ year: 2023, month: 5, day: 8 })
    // A date in the middle of a sentence is not a statement of when the message was written.
    expect(statedDate('I was born on 8 May 2023 in Lisbon')).toBeUndefined()
    expect(statedDate('32 May, 2023 is not a day')).toBeUndefined()
  })

  it('finds the days and months a message asks about, anywhere in it', () => {
    expect(datesMentioned('Who did Maria have dinner with on May 3, 2023, and what about in June 2023?')).toEqual([
      { month: 5, day: 3, year: 2023 },
      { month: 6, year: 2023 }
    ])
    expect(datesMentioned('What happened on 2023-05-08 and 8th of May 2023?')).toEqual([
      { day: 8, month: 5, year: 2023 }
    ])
    expect(datesMentioned('nothing dated here, 45 apples')).toEqual([])
  })

  it('uses a stated date written in the same sitting, else the message time', () => {
    const written = new Date(2026, 10, 22, 15, 0).getTime()
    const stated = { date: { year: 2023, month: 5, day: 8 }, createdAt: written - 1000 }
    expect(passageDate({ createdAt: written }, stated)).toBe('8 May 2023')
    expect(passageDate({ createdAt: written }, { ...stated, createdAt: written - STATED_DATE_REACH_MS - 1 })).toBe(
      '22 November 2026'
    )
    expect(passageDate({ createdAt: written })).toBe('22 November 2026')
  })
})
