import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeBudget } from './budget'

describe('computeBudget', () => {
  it('reserves output and margin out of the window', () => {
    expect(computeBudget({ contextWindow: 128_000, maxOutput: 16_384, safetyMarginPercent: 5, thresholdPercent: 95 })).toEqual({
      window: 128_000,
      reservedOutput: 16_384,
      safetyMargin: 6400,
      usable: 105_216,
      threshold: 99_955,
      thresholdPercent: 95
    })
  })

  it('never promises the reply more than half the window', () => {
    const b = computeBudget({ contextWindow: 8000, maxOutput: 8000, safetyMarginPercent: 5, thresholdPercent: 95 })
    expect(b.reservedOutput).toBe(4000)
    expect(b.usable).toBe(3600)
  })

  it('keeps W = O + S + U and the threshold inside U', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 512, max: 2_000_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 50, max: 99 }),
        (w, o, s, t) => {
          const b = computeBudget({ contextWindow: w, maxOutput: o, safetyMarginPercent: s, thresholdPercent: t })
          expect(b.reservedOutput + b.safetyMargin + b.usable).toBe(w)
          expect(b.threshold).toBeLessThanOrEqual(b.usable)
        }
      )
    )
  })
})
