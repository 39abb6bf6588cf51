import { describe, expect, it } from 'vitest'
import type { ContextUsage } from '../../../../shared/contract'
import { barScale, contextParts } from './context-parts'

type Overrides = Omit<Partial<ContextUsage>, 'breakdown'> & { breakdown?: Partial<ContextUsage['breakdown']> }

function usageWith(overrides: Overrides): ContextUsage {
  const { breakdown, ...rest } = overrides
  return {
    messages: 6,
    summarizedMessages: 0,
    recalledIds: [],
    tokens: 3_000,
    breakdown: { system: 500, summary: 0, history: 2_000, draft: 100, recalled: 0, overhead: 20, ...breakdown },
    budget: { window: 10_000, usable: 8_000, threshold: 7_600, safetyMargin: 500, reservedOutput: 1_500 },
    ...rest
  } as ContextUsage
}

const keys = (usage: ContextUsage) => contextParts(usage).map((p) => p.key)

describe('contextParts', () => {
  it('lists the request in wire order, then the room around it', () => {
    expect(keys(usageWith({}))).toEqual([
      'system',
      'summary',
      'history',
      'draft',
      'overhead',
      'free',
      'margin',
      'reserved'
    ])
  })

  it('puts recalled passages after the retained messages and their files, just before the pending input', () => {
    const usage = usageWith({
      summarizedMessages: 12,
      recalledIds: ['a', 'b'],
      breakdown: { summary: 300, recalled: 240, attachments: 800, pinned: 60 },
      pins: { count: 1, percent: 1, limit: 25 }
    })
    expect(keys(usage)).toEqual([
      'system',
      'summary',
      'pinned',
      'history',
      'attachments',
      'recalled',
      'draft',
      'overhead',
      'free',
      'margin',
      'reserved'
    ])
    const recalled = contextParts(usage).find((p) => p.key === 'recalled')
    expect(recalled).toEqual({
      key: 'recalled',
      label: 'Recalled from history (2 messages)',
      tokens: 240,
      inRequest: true
    })
  })

  it('shows the recalled row once there is a summary to recall from, even with nothing recalled yet', () => {
    expect(keys(usageWith({ summarizedMessages: 4, breakdown: { summary: 200 } }))).toContain('recalled')
    expect(contextParts(usageWith({ summarizedMessages: 4 })).find((p) => p.key === 'recalled')?.label).toBe(
      'Recalled from history (0 messages)'
    )
  })

  it('sums to the window while the request fits', () => {
    const usage = usageWith({})
    const parts = contextParts(usage)
    const inRequest = parts.filter((p) => p.inRequest).reduce((s, p) => s + p.tokens, 0)
    expect(inRequest).toBe(2_620)
    const room = parts.filter((p) => !p.inRequest).reduce((s, p) => s + p.tokens, 0)
    // Free space is measured from the total in context (3,000), which calibration may set apart from the parts.
    expect(room).toBe(8_000 - 3_000 + 500 + 1_500)
    expect(barScale(usage)).toBe(10_000)
  })

  it('widens the bar past the window when the request overflows it', () => {
    const usage = usageWith({ tokens: 9_500 })
    expect(contextParts(usage).find((p) => p.key === 'free')?.tokens).toBe(0)
    expect(barScale(usage)).toBe(9_500 + 1_500 + 500)
  })
})
