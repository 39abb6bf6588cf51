import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resolveModel } from '../models/catalog'
import { applyCalibration, Calibrator, conservativeThreshold, isExact, observeCalibration } from './calibration'

describe('calibration', () => {
  it('converges on the provider’s ratio and corrects estimates', () => {
    const c = new Calibrator()
    expect(c.apply('anthropic:claude-sonnet-4-5', 1000)).toBe(1000) // no data: unchanged
    // our estimate is ~15% low; reported usage is noisy
    for (let i = 0; i < 30; i++) c.observe('anthropic:claude-sonnet-4-5', 10_000, 11_500 + (i % 2 ? 200 : -200))
    expect(c.factor('anthropic:claude-sonnet-4-5')).toBeCloseTo(1.15, 1)
    expect(c.apply('anthropic:claude-sonnet-4-5', 1000)).toBeGreaterThanOrEqual(1140)
    expect(c.apply('google:gemini-2.5-pro', 1000)).toBe(1000) // per model
  })

  it('lends a sibling model’s count only when it is higher, until the model has its own', () => {
    const c = new Calibrator()
    c.observe('openai-compatible:big', 1000, 1600)
    c.observe('openai-compatible:other', 1000, 700)
    c.observe('anthropic:claude-sonnet-4-5', 1000, 1900)
    expect(c.calibration('openai-compatible:small')).toEqual({ factor: 1.6, samples: 1, spread: 0, from: 'big' })
    c.observe('openai-compatible:small', 1000, 800)
    expect(c.calibration('openai-compatible:small')).toEqual({ factor: 0.8, samples: 1, spread: 0 })
    expect(new Calibrator({ 'openai:x': { factor: 0.7, samples: 3 } }).calibration('openai:y')).toBeNull()
  })

  it('clamps to 0.5..3 (a tokenizer three times as fine still fits), ignores empty observations, and round-trips its state', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 50 }), (obs) => {
        let s = {}
        for (const [est, rep] of obs) s = observeCalibration(s, 'm', est, rep)
        const f = new Calibrator(s).factor('m')
        expect(f).toBeGreaterThanOrEqual(0.5)
        expect(f).toBeLessThanOrEqual(3)
      })
    )
    expect(observeCalibration({}, 'm', 0, 100)).toEqual({})
    const c = new Calibrator()
    c.observe('m', 100, 1_000_000)
    expect(c.factor('m')).toBe(3)
    const restored = new Calibrator(JSON.parse(JSON.stringify(c)))
    expect(restored.factor('m')).toBe(3)
    expect(new Calibrator({ m: { factor: 99, samples: -1 } }).factor('m')).toBe(1) // invalid stored state is dropped
    expect(applyCalibration({ m: { factor: 1.5, samples: 1 } }, 'm', 11)).toBe(17)
  })

  it('lowers the threshold when counts are estimates (FR-5.2.1)', () => {
    expect(isExact(resolveModel('openai', 'gpt-4o')!)).toBe(true)
    expect(isExact(resolveModel('anthropic', 'claude-haiku-4-5')!)).toBe(false)
    expect(conservativeThreshold(95, true)).toBe(95)
    expect(conservativeThreshold(95, false)).toBe(90)
    expect(conservativeThreshold(52, false)).toBe(50)
    expect(conservativeThreshold(50, false)).toBe(50)
  })
})
