import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeBudget, providerTokens, safeScale } from './budget'

describe('computeBudget', () => {
  it('reserves output and margin out of the window', () => {
    expect(
      computeBudget({ contextWindow: 128_000, maxOutput: 16_384, safetyMarginPercent: 5, thresholdPercent: 95 })
    ).toEqual({
      window: 128_000,
      reservedOutput: 16_384,
      safetyMargin: 6400,
      usable: 105_216,
      threshold: 99_955,
      thresholdPercent: 95,
      scale: 1,
      countedUsable: 105_216,
      countedThreshold: 99_955,
      exact: true,
      calibration: null
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

describe('the budget in counted tokens', () => {
  const arbCalibration = fc.record({
    factor: fc.double({ min: 0.5, max: 2, noNaN: true }),
    samples: fc.integer({ min: 0, max: 50 })
  })

  it('converts both ways exactly: fitting in counted tokens is fitting in the provider’s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 512, max: 2_000_000 }),
        fc.integer({ min: 50, max: 99 }),
        fc.boolean(),
        arbCalibration,
        fc.integer({ min: 0, max: 4_000_000 }),
        (w, t, exact, calibration, counted) => {
          const b = computeBudget({
            contextWindow: w,
            maxOutput: 4096,
            safetyMarginPercent: 5,
            thresholdPercent: t,
            exact,
            calibration
          })
          expect(providerTokens(b, counted) <= b.usable).toBe(counted <= b.countedUsable)
          expect(providerTokens(b, counted) > b.threshold).toBe(counted > b.countedThreshold)
          expect(b.countedThreshold).toBeLessThanOrEqual(b.countedUsable)
        }
      )
    )
  })

  it('is never less safe than the provider’s own count', () => {
    fc.assert(
      fc.property(fc.boolean(), arbCalibration, (exact, calibration) => {
        const scale = safeScale(exact, calibration)
        if (exact || calibration.samples === 0) expect(scale).toBe(1)
        // Toward the provider's count, never past it: more than the factor when it counts fewer, the factor when it counts more.
        else expect(scale).toBeGreaterThanOrEqual(calibration.factor)
        if (!exact && calibration.factor < 1) expect(scale).toBeLessThanOrEqual(1)
      })
    )
  })

  it('trusts a provider that counts fewer a little more with each reply', () => {
    expect(safeScale(false, { factor: 0.6, samples: 1 })).toBeCloseTo(0.8)
    expect(safeScale(false, { factor: 0.6, samples: 4 })).toBeCloseTo(0.68)
    expect(safeScale(false, { factor: 1.6, samples: 1 })).toBe(1.6)
    expect(safeScale(true, { factor: 0.6, samples: 9 })).toBe(1)
  })
})
