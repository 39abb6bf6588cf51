/**
 * Greedy selection under a token budget by what each candidate adds (budgeted maximum coverage, lazily
 * evaluated): a candidate is worth its score times the share of its terms' weight that nothing chosen or
 * already said covers, so a line repeating the summary's words loses to one that brings new ones. That
 * value only falls as more is selected, so a popped candidate whose re-evaluated value still beats the
 * next one in the heap is the true best and is taken. Near-duplicates of a selected sentence (token-set
 * Jaccard through an inverted index, so the cost grows with candidates × overlapping selections rather
 * than with candidates²) are skipped outright.
 */

export interface Candidate {
  score: number
  termIds: readonly number[]
  /** Tie-breaker that keeps the result deterministic: earlier first. */
  position: number
}

export interface SelectOptions {
  budget: number
  /** Tokens a candidate adds to the output; called at most once per candidate, only when it is considered. */
  cost: (index: number) => number
  /** A cheap guess of cost (e.g. characters / 4) to rank candidates before their real cost is known. */
  estimate: (index: number) => number
  /** At or above this token-set Jaccard similarity to a selected sentence, a candidate is a duplicate. */
  duplicateJaccard?: number
  /** Terms the reader already has (the summary's carried lines): a candidate is worth what it adds. */
  covered?: ReadonlySet<number>
  /** How much covering a term is worth (default 1 each). */
  weight?: (termId: number) => number
}

interface Entry {
  index: number
  value: number
  /** How many selections the value was computed against. */
  seen: number
}

class MaxHeap {
  private readonly items: Entry[] = []
  constructor(private readonly position: (index: number) => number) {}

  get size(): number {
    return this.items.length
  }

  private above(a: Entry, b: Entry): boolean {
    return a.value !== b.value ? a.value > b.value : this.position(a.index) < this.position(b.index)
  }

  push(e: Entry): void {
    const h = this.items
    h.push(e)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!this.above(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  peek(): Entry | undefined {
    return this.items[0]
  }

  pop(): Entry | undefined {
    const h = this.items
    const top = h[0]
    const last = h.pop()
    if (top === undefined || last === undefined || h.length === 0) return top
    h[0] = last
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let best = i
      if (l < h.length && this.above(h[l]!, h[best]!)) best = l
      if (r < h.length && this.above(h[r]!, h[best]!)) best = r
      if (best === i) break
      ;[h[i], h[best]] = [h[best]!, h[i]!]
      i = best
    }
    return top
  }
}

/** Returns the indexes of the selected candidates, best first. */
export function selectCandidates(candidates: readonly Candidate[], opts: SelectOptions): number[] {
  const duplicate = opts.duplicateJaccard ?? 0.6
  const costs = new Map<number, number>()
  const costOf = (i: number) => {
    let c = costs.get(i)
    if (c === undefined) {
      c = Math.max(1, opts.cost(i))
      costs.set(i, c)
    }
    return c
  }
  // Value per token, softened: pure density would fill the summary with fragments.
  const base = (i: number) => candidates[i]!.score / Math.sqrt(costOf(i))

  const heap = new MaxHeap((i) => candidates[i]!.position)
  // Until its cost is known, a candidate is ranked by the estimate; its first pop computes the real value.
  candidates.forEach((c, index) =>
    heap.push({ index, value: c.score / Math.sqrt(Math.max(1, opts.estimate(index))), seen: -1 })
  )

  const selected: number[] = []
  const postings = new Map<number, number[]>()
  let remaining = opts.budget

  const maxSimilarity = (i: number): number => {
    const mine = candidates[i]!.termIds
    if (mine.length === 0 || selected.length === 0) return 0
    const shared = new Map<number, number>()
    for (const id of mine) for (const s of postings.get(id) ?? []) shared.set(s, (shared.get(s) ?? 0) + 1)
    let best = 0
    for (const [s, inter] of shared) {
      const j = inter / (mine.length + candidates[s]!.termIds.length - inter)
      if (j > best) best = j
    }
    return best
  }

  const covered = new Set<number>(opts.covered)
  const weight = opts.weight ?? (() => 1)
  /** The share of the candidate's term weight not covered yet (1 for a candidate without terms). */
  const adds = (i: number): number => {
    let all = 0
    let fresh = 0
    for (const id of candidates[i]!.termIds) {
      const w = weight(id)
      all += w
      if (!covered.has(id)) fresh += w
    }
    return all > 0 ? fresh / all : 1
  }

  while (heap.size > 0 && remaining > 0) {
    const top = heap.pop()!
    const i = top.index
    if ((costs.get(i) ?? 0) > remaining) continue
    if (top.seen !== selected.length) {
      if (maxSimilarity(i) >= duplicate || costOf(i) > remaining) continue
      const value = base(i) * adds(i)
      const next = heap.peek()
      if (next && value < next.value) {
        heap.push({ index: i, value, seen: selected.length })
        continue
      }
    }
    if (costOf(i) > remaining) continue
    selected.push(i)
    remaining -= costOf(i)
    for (const id of candidates[i]!.termIds) {
      covered.add(id)
      const list = postings.get(id)
      if (list) list.push(i)
      else postings.set(id, [i])
    }
  }
  return selected
}
