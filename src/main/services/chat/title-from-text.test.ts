import { describe, expect, it } from 'vitest'
import { titleFromText } from './title-from-text'

describe('titleFromText', () => {
  it('names a chat after the first line with words, cut at a word boundary', () => {
    expect(titleFromText('\n  \n  Plan   the\tmove\nsecond line')).toBe('Plan the move')
    expect(titleFromText(`${'word '.repeat(20)}\nmore`)).toBe(`${'word '.repeat(12).trim()}…`)
    expect(titleFromText(' \n\t ')).toBe('')
  })

  it('reads only the start of a message of a million characters on one line', () => {
    expect(titleFromText(`Summarize this ${'lorem ipsum '.repeat(90_000)}`)).toBe(
      'Summarize this lorem ipsum lorem ipsum lorem ipsum lorem…'
    )
    expect(titleFromText('b'.repeat(1_000_000))).toBe(`${'b'.repeat(60)}…`)
  })
})
