import { describe, expect, it } from 'vitest'
import { summarizeExtractive, type ExtractiveInput } from './summarize-extractive'

type Msg = ExtractiveInput['messages'][number]
/** Counts like a chat tokenizer: framing per message, roughly a token per word or punctuation mark. */
const framed = (s: string) => 3 + (s.match(/\w+|[^\w\s]/g)?.length ?? 0)

describe('summarizeExtractive speaker labels', () => {
  /** An assistant that opens every reply with an acknowledgement, as assistants do. */
  const acknowledged: Msg[] = [
    { role: 'user', text: 'Please move the weekly standup to 9:30 on Tuesdays from now on.' },
    { role: 'assistant', text: 'Understood. The weekly standup moves to 9:30 on Tuesdays.' },
    { role: 'user', text: 'Can you draft the release notes for version 2.4 with the new CSV and Parquet exports?' },
    { role: 'assistant', text: 'Certainly! The draft covers the CSV and Parquet exports and the retry fix.' },
    { role: 'user', text: 'Remember that Priya owns the billing service and Tomas owns search.' },
    { role: 'assistant', text: 'Noted. Priya owns billing and Tomas owns search.' },
    { role: 'user', text: 'Archive the Q3 support tickets, please.' },
    { role: 'assistant', text: 'Done. 212 tickets from Q3 were archived to the cold bucket.' },
    { role: 'user', text: 'Keep the old dashboard running until 14 March.' },
    { role: 'assistant', text: 'Understood. The old dashboard stays up until 14 March.' },
    { role: 'user', text: 'Could the new dashboard show p95 latency per region?' },
    { role: 'assistant', text: 'Sure, the new dashboard will chart p95 latency for each of the 6 regions.' },
    { role: 'user', text: 'Send the migration plan to the ops channel.' },
    { role: 'assistant', text: 'Done. The migration plan is pinned in #ops.' }
  ]
  const OPENERS =
    /\b(?:user|assistant): (?:Understood|Certainly|Sure|Noted|Done)\b|^- (?:Understood|Certainly|Sure|Noted|Done):/m

  it('never takes a reply opener for a speaker name', () => {
    const out = summarizeExtractive({ messages: acknowledged, targetTokens: 400, countTokens: framed })
    expect(out.split('\n')[0]).toBe(`Summary of ${acknowledged.length} earlier messages (extractive):`)
    expect(out).not.toMatch(OPENERS)
    expect(out).toContain('- User: Remember that Priya owns the billing service and Tomas owns search.')
    expect(out).toMatch(/^- Assistant: .*212 tickets/m)
  })

  it('names the people the chat addresses, even in replies that open with a stock word', () => {
    const messages: Msg[] = [
      { role: 'user', text: 'Hi Caroline, can you book the flights to Oslo for the 12th?' },
      { role: 'assistant', text: 'Certainly, Melanie! I booked SK 4411, leaving Heathrow at 07:40.' },
      { role: 'user', text: 'Caroline, please add a hotel near the harbour for three nights.' },
      { role: 'assistant', text: 'Understood. The Thon Hotel Opera has a harbour room for three nights.' },
      { role: 'user', text: 'Thanks, Caroline! Also book a table at Maaemo on the 13th.' },
      { role: 'assistant', text: 'Done. Melanie, the table at Maaemo is booked for 19:00 on the 13th.' }
    ]
    const out = summarizeExtractive({ messages, targetTokens: 400, countTokens: framed })
    expect(out.split('\n')[0]).toBe(
      `Summary of ${messages.length} earlier messages (extractive; user: Melanie, assistant: Caroline):`
    )
    expect(out).toMatch(/^- Caroline: .*SK 4411/m)
    expect(out).toMatch(/^- Melanie: .*Oslo/m)
    expect(out).not.toMatch(OPENERS)
  })

  it('gives the lines of an earlier summary that took an opener for a name back to their side', () => {
    const previousSummary = [
      'Summary of 4 earlier messages (extractive; user: Understood):',
      '- Understood: Our office moves from Leeds to Kraków in June.',
      '- Assistant: The lease in Kraków starts on 1 June.'
    ].join('\n')
    const out = summarizeExtractive({
      previousSummary,
      messages: acknowledged.slice(2),
      targetTokens: 400,
      countTokens: framed
    })
    expect(out).not.toMatch(OPENERS)
    expect(out).toContain('- User: Our office moves from Leeds to Kraków in June.')
  })
})

describe('summarizeExtractive across cascades', () => {
  it('keeps a fact once, in its newest words', () => {
    const first = summarizeExtractive({
      messages: [{ role: 'user', text: 'My sister Lena moves to Porto in March for her new design job.' }],
      targetTokens: 200,
      countTokens: (t) => Math.ceil(t.length / 4)
    })
    const second = summarizeExtractive({
      previousSummary: first,
      messages: [{ role: 'user', text: 'Update: my sister Lena moves to Porto in April for her new design job.' }],
      targetTokens: 200,
      countTokens: (t) => Math.ceil(t.length / 4)
    })
    expect(second).toContain('in April')
    expect(second).not.toContain('in March')
  })
})
