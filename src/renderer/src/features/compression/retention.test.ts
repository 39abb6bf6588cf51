import { describe, expect, it } from 'vitest'
import { belowMinimumNote, nothingToSummarizeNote, parseRetention } from './retention'

describe('parseRetention', () => {
  it('takes empty as "summarize everything"', () => {
    expect(parseRetention('  ')).toEqual({ value: undefined, error: null })
  })

  it('accepts whole numbers from 0 to 1,000,000', () => {
    expect(parseRetention('0')).toEqual({ value: 0, error: null })
    expect(parseRetention('1500')).toEqual({ value: 1500, error: null })
    expect(parseRetention('1000000').value).toBe(1_000_000)
  })

  it('refuses the rest with a reason', () => {
    expect(parseRetention('-5').error).toBe('Cannot be negative')
    expect(parseRetention('1.5').error).toBe('Use a whole number')
    expect(parseRetention('abc').error).toBe('Enter a number')
    expect(parseRetention('1000001').error).toBe('At most 1,000,000 tokens')
  })
})

describe('belowMinimumNote', () => {
  it('says what the minimum leaves out when the tokens shown beside it are above it', () => {
    expect(belowMinimumNote({ minimumTokens: 2000, tokensBefore: 2100 })).toMatch(
      /^Without the system prompt and the request’s framing, this chat is below the minimum of 2,000 tokens/
    )
  })

  it('says it plainly when the whole context is below it too', () => {
    expect(belowMinimumNote({ minimumTokens: 2000, tokensBefore: 900 })).toMatch(
      /^This chat is below the minimum of 2,000 tokens for compression: summarizing now saves little/
    )
  })
})

describe('nothingToSummarizeNote', () => {
  it('says the recent tokens kept hold every message, and how to summarize them anyway', () => {
    expect(nothingToSummarizeNote({ messagesKept: 8, summaryExists: false }, 1000)).toBe(
      'All 8 messages fit in the 1,000 recent tokens kept word for word. Lower “Keep recent tokens” to summarize them.'
    )
    expect(nothingToSummarizeNote({ messagesKept: 1, summaryExists: true }, 600)).toBe(
      'The only message since the summary fits in the 600 recent tokens kept word for word. Lower “Keep recent tokens” to summarize it.'
    )
  })

  it('says there is nothing new when nothing is kept either', () => {
    expect(nothingToSummarizeNote({ messagesKept: 0, summaryExists: true }, 1000)).toBe(
      'There is nothing new to summarize yet.'
    )
    expect(nothingToSummarizeNote({ messagesKept: 3, summaryExists: true }, undefined)).toBe(
      'There is nothing new to summarize yet.'
    )
  })
})
