import { describe, expect, it } from 'vitest'
import { DETAILS_HEADING, factsOf, withMissingDetails } from './summary-details'

const count = (text: string) => Math.ceil(text.length / 4)

describe('Details: the facts a model summary left out', () => {
  it('finds names, numbers, dates and identifiers', () => {
    expect(factsOf('We met Matt Patterson at 07:10 on 3 March 2023 and paid $450 for ticket API-42.')).toEqual(
      expect.arrayContaining(['matt patterson', '07:10', 'march', '2023', '$450', 'api-42'])
    )
    expect(factsOf('Thanks, that sounds great.')).toEqual([])
  })

  it('appends the sentences that state the dropped facts, within the budget, in conversation order', () => {
    const sources = [
      { label: 'User', text: 'The ferry to Skye leaves at 07:10 from pier 3.' },
      { label: 'Assistant', text: 'Noted. I booked seats 14A and 14B for £86 in total.' },
      { label: 'User', text: 'Thanks, that is lovely.' },
      { label: 'User', text: 'My cousin Ailsa Brodie meets us in Portree.' }
    ]
    const summary = 'The user planned a ferry trip and the assistant booked seats.'
    const out = withMissingDetails({ sources, summary, targetTokens: 200, countTokens: count })
    expect(out.startsWith(summary)).toBe(true)
    expect(out).toContain(`\n\n${DETAILS_HEADING}\n`)
    expect(out).toContain('07:10')
    expect(out).toContain('£86')
    expect(out).toContain('- User: My cousin Ailsa Brodie meets us in Portree.')
    expect(out).toContain('- Assistant: Booked seats 14A and 14B for £86 in total.')
    expect(out).not.toContain('lovely')
    expect(out.indexOf('07:10')).toBeLessThan(out.indexOf('Ailsa'))
    expect(count(out)).toBeLessThanOrEqual(200)
  })

  it('adds nothing when the summary already holds the facts or there is no room', () => {
    const sources = [{ label: 'User', text: 'The code is 4471.' }]
    expect(withMissingDetails({ sources, summary: 'The code is 4471.', targetTokens: 100, countTokens: count })).toBe(
      'The code is 4471.'
    )
    const tight = 'The user gave a code.'
    expect(withMissingDetails({ sources, summary: tight, targetTokens: count(tight) + 2, countTokens: count })).toBe(
      tight
    )
  })
})
