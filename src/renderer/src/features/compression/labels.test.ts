import { describe, expect, it } from 'vitest'
import { strategyLabel, summarizerLabel } from './labels'

describe('labels', () => {
  it('names strategies and summarizers in words', () => {
    expect(strategyLabel('rolling')).toBe('Rolling')
    expect(summarizerLabel('extractive')).toMatch(/offline/)
    expect(summarizerLabel('gpt-4o-mini')).toBe('gpt-4o-mini')
  })
})
