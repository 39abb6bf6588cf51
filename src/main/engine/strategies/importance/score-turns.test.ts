import { describe, expect, it } from 'vitest'
import type { EngineMessage } from '../../types'
import { noveltyScores } from './novelty'
import { scoreTurns } from './score-turns'
import { codeSignal, decisionSignal, entitiesSignal, numbersSignal, phaticShare, withoutPhatic } from './signals'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const turn = (i: number, text: string, role: EngineMessage['role'] = i % 2 ? 'assistant' : 'user'): EngineMessage => ({
  id: `t${i}`,
  seq: i + 1,
  role,
  text,
  tokens: count(text),
  createdAt: i
})

const DECISION =
  'OK, we decided to switch to Postgres 16: set `max_connections = 200` in `postgresql.conf` and move the cutover to 2025-04-02; the migration budget is $4,500.'
const CHAT = [
  'Hi! How are you today?',
  "I'm doing well, thanks for asking. How can I help?",
  DECISION,
  'Thanks, sounds good!',
  'You are welcome, happy to help.',
  'Thanks again!'
]

describe('signals', () => {
  it('finds decisions, quantities, code and names', () => {
    expect(decisionSignal("Let's go with the blue one.")).toBe(1)
    expect(decisionSignal('Use a queue instead of polling.')).toBe(0.6)
    expect(decisionSignal('The weather is nice.')).toBe(0)
    expect(numbersSignal('It costs €1,840 on 2025-03-14 at 14:30.')).toBe(1)
    expect(numbersSignal('I have 2 cats.')).toBe(0)
    expect(codeSignal('```ts\nconst x = 1\n```')).toBe(1)
    expect(codeSignal('Call `fetchUser()` from src/api/user.ts with --retry.')).toBe(1)
    expect(codeSignal('Nothing technical here.')).toBe(0)
    expect(entitiesSignal('Yesterday I met Alice Martin from Acme Corp in Berlin.')).toBe(1)
    expect(entitiesSignal('The plan is fine. Thanks a lot.')).toBe(0)
    // A sentence's first word is not a name.
    expect(entitiesSignal('Maybe later.')).toBe(0)
  })
})

describe('noveltyScores', () => {
  it('is 1 for new content, lower for repeats, and 0 without content terms', () => {
    const n = noveltyScores([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], []])
    expect(n[0]).toBe(1)
    expect(n[1]).toBeCloseTo(0)
    expect(n[2]).toBe(1)
    expect(n[3]).toBe(0)
  })

  it('finds a repeat far outside the window through its rare terms', () => {
    const filler = Array.from({ length: 200 }, (_, i) => [
      1000 + i * 6,
      1001 + i * 6,
      1002 + i * 6,
      1003 + i * 6,
      1004 + i * 6,
      1005 + i * 6
    ])
    const n = noveltyScores([[1, 2, 3, 4, 5, 6], ...filler, [1, 2, 3, 4, 5, 6]], { window: 8 })
    expect(n.at(-1)).toBeCloseTo(0)
  })
})

describe('scoreTurns', () => {
  it('scores a decision with numbers and code above small talk', () => {
    const scores = scoreTurns(CHAT.map((t, i) => turn(i, t)))
    const decision = scores[2]!
    expect(decision.class).toBe('paradigm-shift')
    expect(decision.signals).toMatchObject({ novelty: 1, decision: 1, numbers: 1 })
    expect(decision.signals.code).toBeGreaterThan(0.5)
    for (const i of [0, 1, 3, 4, 5]) {
      expect(scores[i]!.score).toBeLessThan(decision.score)
      expect(scores[i]!.class).toBe('routine')
    }
  })

  it('classes a novel technical question without a decision as important', () => {
    const [s] = scoreTurns([
      turn(
        0,
        'How does the replication lag between the primary and the read replicas affect the nightly reporting queries?'
      )
    ])
    expect(s!.class).toBe('important')
  })

  it('is deterministic', () => {
    const turns = Array.from({ length: 200 }, (_, i) =>
      turn(i, `${CHAT[i % CHAT.length]} variant ${i % 7} about ticket ${(i * 37) % 101}`)
    )
    expect(scoreTurns(turns)).toEqual(scoreTurns(turns.map((t) => ({ ...t }))))
  })

  it('scores 1,000 turns well under a second', () => {
    const words =
      'schema index replica cache queue worker deploy rollback invoice ledger tenant shard metric alert budget vendor'.split(
        ' '
      )
    const turns = Array.from({ length: 1000 }, (_, i) =>
      turn(
        i,
        Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ') +
          ` Alice Martin approved ${i * 13} units on 2025-03-${String((i % 28) + 1).padStart(2, '0')}. Use \`run_job_${i}\` now.`
      )
    )
    const t0 = performance.now()
    const scores = scoreTurns(turns)
    const ms = performance.now() - t0
    expect(scores).toHaveLength(1000)
    expect(ms).toBeLessThan(1000)
  })
})

describe('small talk and news in any chat', () => {
  it('sees greetings, thanks, praise and agreement as phatic, and events as not', () => {
    for (const t of [
      'Hey Sam! Good to see you! How have you been?',
      'Thanks so much!',
      'Wow, that sounds amazing!',
      'I agree, totally.',
      'Take care, talk soon!'
    ])
      expect(phaticShare(t)).toBe(1)
    for (const t of [
      'I moved to Porto last month for a new job at a bakery.',
      'The flight leaves at 6:40 on 3 June.',
      'We adopted a puppy named Biscuit.'
    ])
      expect(phaticShare(t)).toBe(0)
    expect(withoutPhatic('(9 May, 2023) Hi Ana! Thanks for asking. I started a pottery class yesterday.')).toBe(
      '(9 May, 2023) I started a pottery class yesterday.'
    )
    expect(withoutPhatic('Haha, nice! Thanks!')).toBe('')
  })

  it('counts dates and plans said in words', () => {
    expect(
      numbersSignal('I went to a support group yesterday and I am going to volunteer next month.')
    ).toBeGreaterThan(0.6)
    expect(numbersSignal('That is lovely to hear.')).toBe(0)
  })

  it('scores small talk low and news with names, dates and plans high, whoever speaks', () => {
    const turns = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? turn(
            i,
            `Hey Robin! ${['Thanks so much!', 'Wow, that sounds great!', 'Haha, totally agree.', 'So happy for you!'][i % 4]}`
          )
        : turn(
            i,
            `Robin, on ${(i % 27) + 1} March I met ${['Nadia Petrova', 'Omar Said', 'Lena Fischer'][i % 3]} in ${['Lyon', 'Accra', 'Busan', 'Perth', 'Cusco'][i % 5]} about the ${['garden', 'choir', 'startup', 'marathon'][i % 4]} we plan to start next month (item ${i}).`
          )
    )
    const scores = scoreTurns(turns)
    const phatic = scores.filter((_, i) => i % 3 === 0)
    const news = scores.filter((_, i) => i % 3 !== 0)
    expect(phatic.every((s) => s.class === 'routine')).toBe(true)
    expect(Math.max(...phatic.map((s) => s.score))).toBeLessThan(Math.min(...news.map((s) => s.score)))
    // "Robin", named in every turn, is the person spoken to: it is not news.
    expect(phatic.every((s) => s.signals.entities === 0)).toBe(true)
  })

  it('leaves a name out of the entity signal only when the conversation keeps repeating it', () => {
    expect(entitiesSignal('I saw Robin at the market.', new Set(['robin']))).toBe(0)
    expect(entitiesSignal('I saw Robin at the market.')).toBe(0.25)
  })
})
