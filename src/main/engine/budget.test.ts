import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeBudget, providerTokens, safeScale, type Calibration } from './budget'

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
  const arbCalibration: fc.Arbitrary<Calibration> = fc.record({
    factor: fc.double({ min: 0.5, max: 2, noNaN: true }),
    samples: fc.integer({ min: 0, max: 50 }),
    spread: fc.double({ min: 0, max: 0.3, noNaN: true })
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
        else {
          // Never below the provider's average count, plus a margin for how far single requests stray.
          const margin =
            2 * Math.max((0.1 * calibration.factor) / Math.sqrt(calibration.samples), calibration.spread ?? 0)
          expect(scale).toBeGreaterThanOrEqual(calibration.factor + margin - 1e-9)
          // One that counts fewer is not assumed to count more than the estimate beyond that margin.
          if (calibration.factor < 1) expect(scale).toBeLessThanOrEqual(1 + margin + 1e-9)
        }
      })
    )
  })

  it('trusts a provider that counts fewer a little more with each reply', () => {
    // Half way after one reply, 80% after four; plus the least spread assumed (10% of the factor / √replies, twice).
    expect(safeScale(false, { factor: 0.6, samples: 1 })).toBeCloseTo(0.8 + 0.12)
    expect(safeScale(false, { factor: 0.6, samples: 4 })).toBeCloseTo(0.68 + 0.06)
    expect(safeScale(false, { factor: 0.6, samples: 100 })).toBeCloseTo(1 - 0.4 * (100 / 101) + 0.012)
    expect(safeScale(true, { factor: 0.6, samples: 9 })).toBe(1)
    // Fewer on average, but single requests strayed ±11%: this one may cost more than the estimate.
    expect(safeScale(false, { factor: 0.86, samples: 2, spread: 0.11 })).toBeCloseTo(1 - 0.14 * (2 / 3) + 0.22)
  })

  it('believes a provider that counts more at once, with a margin that shrinks as replies agree', () => {
    expect(safeScale(false, { factor: 1.6, samples: 1 })).toBeCloseTo(1.6 * 1.2)
    expect(safeScale(false, { factor: 1.6, samples: 4 })).toBeCloseTo(1.6 * 1.1)
    expect(safeScale(false, { factor: 1.6, samples: 400 })).toBeCloseTo(1.6 * 1.01)
    // A wider observed spread wins over the assumed one.
    expect(safeScale(false, { factor: 1.6, samples: 400, spread: 0.1 })).toBeCloseTo(1.8)
  })
})
