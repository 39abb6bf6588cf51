import { describe, expect, it } from 'vitest'
import { parseRetention } from './retention'

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
