import { describe, expect, it } from 'vitest'
import { overBudgetNote } from './over-budget-note'

const budget = { usable: 3000 } as Parameters<typeof overBudgetNote>[0]['budget']

describe('overBudgetNote', () => {
  it('says nothing while the context fits', () => {
    expect(overBudgetNote({ tokens: 3000, budget, leftOut: 0, compressionDue: false, draftCut: 0 })).toBeNull()
  })

  it('says the next send summarizes first, so nothing is lost', () => {
    expect(overBudgetNote({ tokens: 3500, budget, leftOut: 0, compressionDue: true, draftCut: 0 })).toBe(
      '500 tokens over the usable budget: the next message summarizes older messages first, so nothing is left out.'
    )
  })

  it('names how many messages would be left out before the send, with auto-compression off', () => {
    expect(overBudgetNote({ tokens: 4200, budget, leftOut: 6, compressionDue: false, draftCut: 0 })).toBe(
      '1,200 tokens over the usable budget. Auto-compression is off, so the 6 oldest unsummarized messages would be left out of the next request: summarize, or turn auto-compression on, to keep them.'
    )
  })
})
