import { describe, expect, it } from 'vitest'
import { formatCost } from './format-cost'

describe('a summary cost as shown', () => {
  it('keeps what matters of small amounts', () => {
    expect(formatCost(0)).toBe('$0')
    expect(formatCost(0.00004)).toBe('less than $0.0001')
    expect(formatCost(0.00213)).toBe('$0.0021')
    expect(formatCost(0.0412)).toBe('$0.04')
    expect(formatCost(1.2)).toBe('$1.20')
  })
})
