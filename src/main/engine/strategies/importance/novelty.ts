/**
 * Novelty of each turn against the turns before it, with a local lexical vector model instead of
 * Sigma's 768-dimension embeddings: TF-IDF over the conversation's content terms (binary term
 * frequency, idf = ln(1 + N / df)), cosine similarity, novelty = 1 − the highest similarity to an
 * earlier turn. Linear time: a turn is compared with the previous `window` turns and with the earlier
 * turns that share one of its rare terms (where a high similarity has to come from), at most
 * `maxCandidates` of them.
 */

export interface NoveltyOptions {
  /** Earlier turns always compared. */
  window?: number
  /** A term is rare when it occurs in at most this many turns. */
  rareDf?: number
  maxCandidates?: number
  /** Turns with fewer content terms than this are scaled down ("thanks!" is not news). */
  fullTerms?: number
}

export const NOVELTY_DEFAULTS: Required<NoveltyOptions> = { window: 32, rareDf: 16, maxCandidates: 256, fullTerms: 6 }

/** termIds[i]: the distinct term ids of turn i. Returns novelty in [0, 1] per turn. */
export function noveltyScores(termIds: ReadonlyArray<readonly number[]>, options: NoveltyOptions = {}): number[] {
  const o = { ...NOVELTY_DEFAULTS, ...options }
  const n = termIds.length
  const df = new Map<number, number>()
  for (const ids of termIds) for (const id of ids) df.set(id, (df.get(id) ?? 0) + 1)
  const weight = (id: number) => {
    const w = Math.log(1 + n / (df.get(id) ?? 1))
    return w * w
  }
  const sets = termIds.map((ids) => new Set(ids))
  const norms = termIds.map((ids) => Math.sqrt(ids.reduce((s, id) => s + weight(id), 0)))
  /** Earlier turns holding each rare term, oldest first. */
  const postings = new Map<number, number[]>()
  const out: number[] = []

  for (let i = 0; i < n; i++) {
    const ids = termIds[i]!
    if (ids.length === 0 || norms[i] === 0) {
      out.push(0)
      continue
    }
    const candidates = new Set<number>()
    for (let j = Math.max(0, i - o.window); j < i; j++) candidates.add(j)
    for (const id of ids) {
      const list = postings.get(id)
      if (!list) continue
      for (let k = list.length - 1; k >= 0 && candidates.size < o.window + o.maxCandidates; k--)
        candidates.add(list[k]!)
    }
    let best = 0
    for (const j of candidates) {
      if (norms[j] === 0) continue
      const other = sets[j]!
      let dot = 0
      for (const id of ids) if (other.has(id)) dot += weight(id)
      const sim = dot / (norms[i]! * norms[j]!)
      if (sim > best) best = sim
    }
    const damp = Math.min(1, ids.length / o.fullTerms)
    out.push(Math.max(0, Math.min(1, 1 - best)) * damp)
    for (const id of ids) {
      if ((df.get(id) ?? 0) > o.rareDf) continue
      const list = postings.get(id)
      if (list) list.push(i)
      else postings.set(id, [i])
    }
  }
  return out
}
