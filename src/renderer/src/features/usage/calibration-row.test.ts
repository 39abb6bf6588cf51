import { describe, expect, it } from 'vitest'
import { calibrationTokens, countedParts, signedCount } from './calibration-row'

const breakdown = { system: 490, summary: 0, history: 2699, draft: 4, recalled: 0, overhead: 0 }

describe('calibrationTokens', () => {
  it('is what the total takes from the counted rows when the provider counts fewer tokens', () => {
    const usage = { tokens: 2034, breakdown }
    expect(countedParts(breakdown)).toBe(3193)
    expect(calibrationTokens(usage)).toBe(-1159)
    expect(countedParts(breakdown) + calibrationTokens(usage)).toBe(usage.tokens)
  })

  it('counts every part: pins, attachments, Recall and the framing', () => {
    const full = { ...breakdown, summary: 300, pinned: 40, attachments: 85, recalled: 120, overhead: 12 }
    expect(calibrationTokens({ tokens: 3750 + 200, breakdown: full })).toBe(200)
  })

  it('is 0 when the counts are the model’s own', () => {
    expect(calibrationTokens({ tokens: 3193, breakdown })).toBe(0)
  })
})

describe('signedCount', () => {
  it('says which way the calibration goes', () => {
    const format = (n: number) => n.toLocaleString('en-US')
    expect(signedCount(-1159, format)).toBe('−1,159')
    expect(signedCount(200, format)).toBe('+200')
  })
})
