import { describe, expect, it } from 'vitest'
import { formatCount, formatTokens } from './format-tokens'

describe('formatTokens', () => {
  it('keeps small counts as they are', () => {
    expect(formatTokens(0)).toBe('0')
    expect(formatTokens(999)).toBe('999')
  })

  it('uses one decimal and k from a thousand on', () => {
    expect(formatTokens(1000)).toBe('1k')
    expect(formatTokens(41_234)).toBe('41.2k')
    expect(formatTokens(128_000)).toBe('128k')
    expect(formatTokens(8192)).toBe('8.2k')
    expect(formatTokens(105_216)).toBe('105.2k')
  })

  it('switches to M at a million, also when rounding gets there', () => {
    expect(formatTokens(999_960)).toBe('1M')
    expect(formatTokens(1_047_576)).toBe('1M')
    expect(formatTokens(2_500_000)).toBe('2.5M')
  })

  it('writes full counts with separators', () => {
    expect(formatCount(105_216)).toBe('105,216')
  })
})
