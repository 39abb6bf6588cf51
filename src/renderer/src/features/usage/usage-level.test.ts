import { describe, expect, it } from 'vitest'
import { isEstimate, percentOf, usageLevel, usageValueText } from './usage-level'

const budget = {
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
}

describe('usage level', () => {
  it('is normal below 80%, warn from 80%, danger from 95% of the usable budget', () => {
    expect(usageLevel(79, 100)).toBe('normal')
    expect(usageLevel(80, 100)).toBe('warn')
    expect(usageLevel(94, 100)).toBe('warn')
    expect(usageLevel(95, 100)).toBe('danger')
    expect(usageLevel(150, 100)).toBe('danger')
    expect(usageLevel(0, 0)).toBe('danger')
  })

  it('words the value for screen readers', () => {
    expect(usageValueText({ tokens: 41_234, exact: true, counter: 'tiktoken:o200k_base', budget })).toBe(
      '41.2k of 105.2k tokens'
    )
    expect(usageValueText({ tokens: 41_234, exact: false, counter: 'mixed', budget })).toBe(
      '41.2k of 105.2k tokens (estimated)'
    )
  })

  it('counts an empty chat of a model without a tokenizer as an estimate', () => {
    expect(isEstimate({ exact: true, counter: 'estimate:generic' })).toBe(true)
    expect(isEstimate({ exact: true, counter: 'chars/4' })).toBe(true)
    expect(isEstimate({ exact: true, counter: 'api:anthropic:claude-sonnet-4-5' })).toBe(false)
    expect(isEstimate({ exact: true, counter: 'mixed' })).toBe(false)
  })

  it('clamps bar widths', () => {
    expect(percentOf(50, 200)).toBe(25)
    expect(percentOf(300, 200)).toBe(100)
    expect(percentOf(1, 0)).toBe(100)
  })
})
