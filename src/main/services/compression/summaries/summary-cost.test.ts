import { describe, expect, it } from 'vitest'
import { isPaid, summaryCostUsd } from './summary-cost'

describe('what a model summary costs', () => {
  it('prices input and output per million tokens', () => {
    expect(summaryCostUsd({ pricePerMTokInput: 2.5, pricePerMTokOutput: 10 }, 100_000, 2_000)).toBeCloseTo(0.27)
  })
  it('is unknown without prices, and free models are not paid', () => {
    expect(summaryCostUsd({ pricePerMTokInput: null, pricePerMTokOutput: null }, 1000, 10)).toBeNull()
    expect(isPaid({ pricePerMTokInput: null, pricePerMTokOutput: null })).toBe(false)
    expect(isPaid({ pricePerMTokInput: 0, pricePerMTokOutput: 0 })).toBe(false)
    expect(isPaid({ pricePerMTokInput: 0.15, pricePerMTokOutput: 0.6 })).toBe(true)
  })
})
