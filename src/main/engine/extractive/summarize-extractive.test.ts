import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { noteOf } from './information'
import { EMPTY_SUMMARY, summarizeExtractive, type ExtractiveInput } from './summarize-extractive'

type Msg = ExtractiveInput['messages'][number]
const quarter = (s: string) => Math.ceil(s.length / 4)
/** Counts like a chat tokenizer: framing per message, roughly a token per word or punctuation mark. */
const framed = (s: string) => 3 + (s.match(/\w+|[^\w\s]/g)?.length ?? 0)

const FILLER = [
  'That sounds reasonable to me, thanks for walking through it.',
  'Sure, happy to help with that.',
  'I think the general approach is fine and we can refine it as we go.',
  'Great, that makes sense.',
  'Let me know if anything else comes up.',
  'It depends a little on how the rest of the week goes, but it should work out.'
]

describe('summarizeExtractive', () => {
  it('returns a short line for empty input, or nothing when even that does not fit', () => {
    expect(summarizeExtractive({ messages: [], targetTokens: 100, countTokens: quarter })).toBe(EMPTY_SUMMARY)
    expect(
      summarizeExtractive({ messages: [{ role: 'user', text: '  ' }], targetTokens: 100, countTokens: quarter })
    ).toBe(EMPTY_SUMMARY)
    expect(summarizeExtractive({ messages: [], targetTokens: 2, countTokens: quarter })).toBe('')
  })

  it('keeps the facts and drops the pleasantries, in chronological order with labels', () => {
    const messages: Msg[] = [
      { role: 'user', text: 'Hi there! Thanks so much.' },
      { role: 'user', text: 'The staging database listens on port 5433, not the default.' },
      ...FILLER.map((text, i): Msg => ({ role: i % 2 ? 'assistant' : 'user', text })),
      { role: 'assistant', text: 'We decided to use `pg_stat_statements` for the slow query report. Happy to help!' },
      ...FILLER.map((text, i): Msg => ({ role: i % 2 ? 'user' : 'assistant', text })),
      { role: 'user', text: 'The deadline is 2027-03-14 and the budget is €1,840.' }
    ]
    const out = summarizeExtractive({ messages, targetTokens: 90, countTokens: quarter })
    expect(quarter(out)).toBeLessThanOrEqual(90)
    const lines = out.split('\n')
    expect(lines[0]).toBe(`Summary of ${messages.length} earlier messages (extractive):`)
    const facts = [
      '- User: The staging database listens on port 5433, not the default.',
      '- Assistant: We decided to use `pg_stat_statements` for the slow query report.',
      '- User: The deadline is 2027-03-14 and the budget is €1,840.'
    ]
    expect(lines.filter((l) => facts.includes(l))).toEqual(facts)
    expect(out).not.toMatch(/Thanks|Happy to help|Great/i)
  })

  it('labels tool output and keeps only the head of a long code block', () => {
    const code = [
      '```python',
      'def rebuild_index(shard_id: int) -> None:',
      ...Array.from({ length: 40 }, (_, i) => `    step_${i}()`),
      '```'
    ].join('\n')
    const out = summarizeExtractive({
      messages: [
        { role: 'assistant', text: `Here is the job:\n${code}` },
        { role: 'tool', text: 'Exit code 0: reindexed 48,211 rows in 3.2 s.' }
      ],
      targetTokens: 200,
      countTokens: quarter
    })
    expect(out).toContain('def rebuild_index(shard_id: int) -> None:')
    expect(out).not.toContain('step_3')
    expect(out).toContain('- Tool: Exit code 0: reindexed 48,211 rows in 3.2 s.')
  })

  it('clips very long sentences', () => {
    const long = `The contract with Harwell Logistics covers ${'many different warehouses and routes and '.repeat(30)}everything else.`
    const out = summarizeExtractive({
      messages: [{ role: 'user', text: long }],
      targetTokens: 500,
      countTokens: quarter
    })
    expect(out).toContain('Harwell Logistics')
    expect(out.split('\n')[1]!.endsWith('…')).toBe(true)
  })

  it('keeps one of several near-duplicates', () => {
    const messages: Msg[] = [
      { role: 'user', text: 'The release is planned for Friday 14 March in Lisbon.' },
      { role: 'assistant', text: 'The release is planned for Friday 14 March in Lisbon, right.' },
      { role: 'user', text: 'Yes, the release is planned for Friday 14 March in Lisbon.' },
      { role: 'assistant', text: 'Marta Oyelaran owns the rollback runbook.' }
    ]
    const out = summarizeExtractive({ messages, targetTokens: 400, countTokens: quarter })
    expect(out.match(/14 March/g)).toHaveLength(1)
    expect(out).toContain('Marta Oyelaran')
  })

  it('boosts sentences that share the focus terms', () => {
    const messages: Msg[] = [
      { role: 'user', text: 'Our hotel in Porto costs 140 euros a night near Ribeira.' },
      { role: 'user', text: 'The API gateway must return 429 with a retry header.' }
    ]
    const target = 30
    const plain = summarizeExtractive({ messages, targetTokens: target, countTokens: quarter })
    const api = summarizeExtractive({
      messages,
      targetTokens: target,
      countTokens: quarter,
      focus: 'the API gateway design'
    })
    const hotel = summarizeExtractive({ messages, targetTokens: target, countTokens: quarter, focus: 'hotel costs' })
    expect(api).toContain('API gateway')
    expect(hotel).toContain('Porto')
    expect(plain.split('\n')).toHaveLength(2)
  })

  it('puts the previous summary first, with its labels, and adds up the message count', () => {
    const first = summarizeExtractive({
      messages: [
        { role: 'user', text: 'We booked Kestrel Lodge for 3 nights from 2026-07-02.' },
        { role: 'assistant', text: 'Noted, thanks!' }
      ],
      targetTokens: 100,
      countTokens: quarter
    })
    const second = summarizeExtractive({
      previousSummary: first,
      messages: [{ role: 'assistant', text: 'The ferry to Mull leaves Oban at 09:55 and costs £18.' }],
      targetTokens: 100,
      countTokens: quarter
    })
    expect(second.split('\n')).toEqual([
      'Summary of 3 earlier messages (extractive):',
      '- User: We booked Kestrel Lodge for 3 nights from 2026-07-02.',
      '- Assistant: The ferry to Mull leaves Oban at 09:55 and costs £18.'
    ])
    // A foreign summary (e.g. an llm one) keeps its lines under a Summary label.
    const foreign = summarizeExtractive({
      previousSummary: '## Key Points\n- The client is Brightwater Ltd.',
      messages: [],
      targetTokens: 100,
      countTokens: quarter
    })
    expect(foreign).toBe(
      'Summary of the earlier conversation and 0 more messages (extractive):\n- Summary: The client is Brightwater Ltd.'
    )
  })

  it('clips the best sentence when no whole sentence fits', () => {
    const text =
      'The production cluster runs Kubernetes 1.29 on twelve nodes in Frankfurt with autoscaling up to thirty nodes at peak.'
    const out = summarizeExtractive({ messages: [{ role: 'user', text }], targetTokens: 25, countTokens: quarter })
    expect(quarter(out)).toBeLessThanOrEqual(25)
    expect(out).toMatch(/^Summary of 1 earlier message \(extractive\):\n- User: The production .*…$/)
  })

  it('never exceeds the target and is deterministic', () => {
    const word = fc.constantFrom(
      '(1:56 pm on 8 May, 2023)',
      'yesterday',
      'last Friday',
      'the',
      'port',
      '5433',
      'Kestrel',
      'we decided',
      'thanks!',
      '`run_job()`',
      '€1,840',
      'must',
      'café',
      '```',
      '\n',
      '. ',
      '? ',
      '…',
      'x'.repeat(40),
      '- ',
      '🙂'
    )
    const text = fc.array(word, { maxLength: 60 }).map((w) => w.join(' '))
    const message = fc.record(
      {
        role: fc.constantFrom('system', 'user', 'assistant', 'tool' as const),
        text: fc.oneof(text, fc.string({ maxLength: 200 })),
        createdAt: fc.integer({ min: 0, max: 2_000_000_000_000 })
      },
      { requiredKeys: ['role', 'text'] }
    )
    const counters = [quarter, framed, (s: string) => Math.ceil(s.length / 3) + (s.length % 7 === 0 ? 2 : 0)]
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 25 }),
        fc.option(text, { nil: undefined }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: counters.length - 1 }),
        fc.option(text, { nil: undefined }),
        (messages, previousSummary, targetTokens, which, focus) => {
          const countTokens = counters[which]!
          const input = { messages, previousSummary, targetTokens, countTokens, focus }
          const out = summarizeExtractive(input)
          if (out !== '') expect(countTokens(out)).toBeLessThanOrEqual(targetTokens)
          expect(summarizeExtractive(input)).toBe(out)
        }
      ),
      { numRuns: 400 }
    )
  })

  it('drops chat small talk and keeps what happened', () => {
    const messages: Msg[] = [
      { role: 'user', text: 'Hey Tomasz! Long time no chat, how are you?' },
      { role: 'assistant', text: "Hi Ines! I'm great, thanks so much for asking." },
      { role: 'user', text: 'I adopted a greyhound called Pepper from the Riverside shelter on Saturday.' },
      { role: 'assistant', text: "Aww, that's so sweet! I totally agree, dogs are the best." },
      { role: 'assistant', text: 'I started a pottery course at the community college and made two bowls.' },
      { role: 'user', text: "Wow, that's awesome! Keep me posted." },
      { role: 'assistant', text: 'Thanks, Ines! Talk soon, take care.' },
      { role: 'user', text: "You're the best. Can't wait to hear more!" }
    ]
    const out = summarizeExtractive({ messages, targetTokens: 200, countTokens: framed })
    // The assistant addresses the user as Ines twice: the summary calls her by name.
    expect(out.split('\n')[0]).toContain('user: Ines')
    expect(out.split('\n').slice(1)).toEqual([
      '- Ines: Adopted a greyhound called Pepper from the Riverside shelter on Saturday.',
      '- Assistant: Started a pottery course at the community college and made two bowls.'
    ])
  })

  it('dates every sentence from the date its transcript states, under day headings, with relative days resolved', () => {
    const messages: Msg[] = [
      { role: 'user', text: '(1:56 pm on 8 May, 2023) Hey Ana! I went to a climbing gym in Porto yesterday.' },
      { role: 'assistant', text: 'I finally booked flights to Reykjavik for our trip next month.' },
      { role: 'user', text: '(10:00 am on 25 May, 2023) Hi! My sister Lucia moved to Toronto last Friday.' },
      { role: 'assistant', text: 'I signed the lease on a flat in Bergen with a view of the harbour.' }
    ]
    // The replayed messages were all written today: the stated dates win over the timestamps.
    const now = new Date(2026, 0, 10, 12).getTime()
    const out = summarizeExtractive({
      messages: messages.map((m) => ({ ...m, createdAt: now })),
      targetTokens: 300,
      countTokens: framed
    })
    expect(out.split('\n')).toEqual([
      'Summary of 4 earlier messages (extractive, dates as stated in the messages):',
      '8 May 2023:',
      '- User: Went to a climbing gym in Porto yesterday (7 May 2023).',
      '- Assistant: Finally booked flights to Reykjavik for our trip next month (June 2023).',
      '25 May 2023:',
      '- User: My sister Lucia moved to Toronto last Friday (19 May 2023).',
      '- Assistant: Signed the lease on a flat in Bergen with a view of the harbour.'
    ])
    // The next summary continues the stated dates for messages that state none.
    const next = summarizeExtractive({
      previousSummary: out,
      messages: [{ role: 'user', text: 'I bought a used Volvo estate for 4,200 euros yesterday.', createdAt: now }],
      targetTokens: 300,
      countTokens: framed
    })
    expect(next.split('\n').slice(-2)).toEqual([
      '- Assistant: Signed the lease on a flat in Bergen with a view of the harbour.',
      '- User: Bought a used Volvo estate for 4,200 euros yesterday (24 May 2023).'
    ])
    expect(next.split('\n').filter((l) => l === '25 May 2023:')).toHaveLength(1)
  })

  it('groups sentences under the days their messages were written when no date is stated', () => {
    const monday = new Date(2024, 2, 4, 12).getTime()
    const out = summarizeExtractive({
      messages: [
        { role: 'user', text: 'The invoice for Halvorsen Ltd is due on the 15th.', createdAt: monday },
        { role: 'user', text: 'Halvorsen paid 3,400 NOK this morning, two days early.', createdAt: monday + 86_400_000 }
      ],
      targetTokens: 200,
      countTokens: framed
    })
    expect(out.split('\n')).toEqual([
      'Summary of 2 earlier messages (extractive):',
      '4 March 2024:',
      '- User: The invoice for Halvorsen Ltd is due on the 15th.',
      '5 March 2024:',
      '- User: Halvorsen paid 3,400 NOK this morning, two days early.'
    ])
  })

  it('keeps earlier facts through many cascades, within the target every time', () => {
    const facts = [
      'I moved from Lyon to Montreal in 2019 for a job at Ubisoft.',
      'My daughter Noor started violin lessons with Mr. Okafor in March.',
      'We adopted two cats, Miso and Tofu, from the Laval shelter.',
      'I ran the Ottawa half marathon in 1:52 last spring.',
      'My brother Karim opened a bakery called Levain on Rue Saint-Denis.',
      'I finished my pilot licence after 45 hours of flight training.'
    ]
    const chatter = [
      'That sounds great!',
      'I totally agree with you.',
      'Haha, same here.',
      'Thanks so much, you are the best!',
      'Keep me posted!',
      'Wow, how cool is that?'
    ]
    let summary: string | undefined
    for (let round = 0; round < facts.length; round++) {
      const messages: Msg[] = [
        { role: 'user', text: facts[round]! },
        ...chatter.map((text, i): Msg => ({ role: i % 2 ? 'user' : 'assistant', text }))
      ]
      summary = summarizeExtractive({ previousSummary: summary, messages, targetTokens: 170, countTokens: framed })
      expect(framed(summary)).toBeLessThanOrEqual(170)
    }
    // Each fact as a note: "I moved from Lyon…" → "Moved from Lyon…".
    for (const fact of facts) expect(summary).toContain(noteOf(fact))
    expect(summary).not.toMatch(/agree|same here|Keep me posted/)
    expect(summary!.split('\n')[0]).toBe(`Summary of ${facts.length * 7} earlier messages (extractive):`)
  })

  it('summarizes 1,000 messages (~100k tokens) well under a second', () => {
    const topics = ['invoice', 'deploy', 'Lisbon', 'ferry', 'budget', 'schema', 'index', 'Marta', 'retry', 'cache']
    const messages: Msg[] = Array.from({ length: 1000 }, (_, i) => {
      const t = topics[i % topics.length]!
      const body = Array.from(
        { length: 12 },
        (_, j) =>
          `Sentence ${j} about the ${t} work item ${i * 7 + j} mentions ${topics[(i + j) % topics.length]} and port ${3000 + ((i * 13 + j) % 997)}.`
      )
      return { role: i % 2 ? 'assistant' : 'user', text: `${body.join(' ')} Thanks!` }
    })
    expect(messages.reduce((n, m) => n + quarter(m.text), 0)).toBeGreaterThan(90_000)
    const started = performance.now()
    const out = summarizeExtractive({ messages, targetTokens: 2000, countTokens: quarter })
    const ms = performance.now() - started
    expect(quarter(out)).toBeLessThanOrEqual(2000)
    expect(ms).toBeLessThan(1000)
  })
})
