import { describe, expect, it } from 'vitest'
import { selectCandidates, type Candidate } from './select'

const cand = (score: number, termIds: number[], position: number): Candidate => ({ score, termIds, position })
const opts = (budget: number) => ({ budget, cost: () => 10, estimate: () => 10 })

describe('selectCandidates', () => {
  it('prefers what adds new terms over a higher score that repeats what is already said', () => {
    const candidates = [cand(3, [1, 2, 3], 0), cand(2.5, [4, 5, 6], 1)]
    expect(selectCandidates(candidates, opts(10))).toEqual([0])
    expect(selectCandidates(candidates, { ...opts(10), covered: new Set([1, 2]) })).toEqual([1])
  })

  it('values terms by weight: covering a heavy term counts more than a light one', () => {
    const candidates = [cand(2, [1, 7], 0), cand(2, [2, 7], 1)]
    const weight = (id: number) => (id === 2 ? 5 : 1)
    // Term 7 is covered; candidate 1 still adds the heavy term 2, candidate 0 only the light term 1.
    const picked = selectCandidates(candidates, { ...opts(10), covered: new Set([7]), weight })
    expect(picked).toEqual([1])
  })

  it('lets a second pick be worth only what the first did not already cover', () => {
    const candidates = [cand(3, [1, 2, 3, 4], 0), cand(2.9, [1, 2, 3, 9], 1), cand(1.5, [5, 6], 2)]
    expect(selectCandidates(candidates, opts(20))).toEqual([0, 2])
  })

  it('never spends more than the budget', () => {
    const candidates = Array.from({ length: 50 }, (_, i) => cand(1 + (i % 7), [i, i + 1], i))
    const picked = selectCandidates(candidates, { budget: 95, cost: (i) => 5 + (i % 9), estimate: () => 8 })
    expect(picked.reduce((a, i) => a + 5 + (i % 9), 0)).toBeLessThanOrEqual(95)
  })
})
