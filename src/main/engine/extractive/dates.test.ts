import { describe, expect, it } from 'vitest'
import { dayFromTimestamp, formatDay, parseDatePrefix, resolveRelativeDates, withStatedDays } from './dates'

describe('dates', () => {
  it('reads a date stated before the text in the usual transcript forms', () => {
    expect(parseDatePrefix('(1:56 pm on 8 May, 2023) Hey, how are you?')).toEqual({
      day: 20230508,
      rest: 'Hey, how are you?'
    })
    expect(parseDatePrefix('[2024-02-29 09:15] Standup notes')).toEqual({ day: 20240229, rest: 'Standup notes' })
    expect(parseDatePrefix('March 3, 2021: we shipped it')).toEqual({ day: 20210303, rest: 'we shipped it' })
  })

  it('does not take a sentence that mentions a date for a prefix', () => {
    expect(parseDatePrefix('I moved here on 8 May 2023 - best decision ever')).toBeUndefined()
    expect(parseDatePrefix('(see the notes) on 8 May 2023')).toBeUndefined()
    expect(parseDatePrefix('[31 February 2023] nope')).toBeUndefined()
  })

  it('formats days and reads local days from timestamps', () => {
    expect(formatDay(20230508)).toBe('8 May 2023')
    const noon = new Date(2023, 4, 8, 12, 0).getTime()
    expect(dayFromTimestamp(noon)).toBe(20230508)
  })

  it('resolves relative times against the day the sentence was said', () => {
    const monday = 20230508
    expect(resolveRelativeDates('I went to the support group yesterday.', monday)).toBe(
      'I went to the support group yesterday (7 May 2023).'
    )
    expect(resolveRelativeDates('Last Saturday I ran a race.', monday)).toBe('Last Saturday (6 May 2023) I ran a race.')
    expect(resolveRelativeDates('We fly out next Monday.', monday)).toBe('We fly out next Monday (15 May 2023).')
    expect(resolveRelativeDates('I painted it last year and moved 4 years ago.', monday)).toBe(
      'I painted it last year (2022) and moved 4 years ago (2019).'
    )
    expect(resolveRelativeDates('The show is next month.', 20231220)).toBe('The show is next month (January 2024).')
  })

  it('leaves figures of speech and resolved expressions alone', () => {
    expect(resolveRelativeDates('It feels like just yesterday.', 20230508)).toBe('It feels like just yesterday.')
    expect(resolveRelativeDates('yesterday (7 May 2023) was fun', 20230508)).toBe('yesterday (7 May 2023) was fun')
  })

  it("carries a transcript's stated date to the messages after it, and leaves chats without one alone", () => {
    const transcript: Array<{ text: string; statedDay?: number }> = [
      { text: 'Hello there' },
      { text: '(1:56 pm on 8 May, 2023) Hi! I went to a support group yesterday.' },
      { text: 'That is great.' },
      { text: '(10:37 am on 27 June, 2023) Back again.' },
      { text: 'I signed up for a pottery class.' }
    ]
    expect(withStatedDays(transcript).map((m) => m.statedDay)).toEqual([
      undefined,
      20230508,
      20230508,
      20230627,
      20230627
    ])
    const plain = [{ text: 'Hi' }, { text: 'The deploy is on Friday.' }]
    const out = withStatedDays(plain)
    expect(out[0]).toBe(plain[0])
    expect(out[1]).toBe(plain[1])
  })
})
