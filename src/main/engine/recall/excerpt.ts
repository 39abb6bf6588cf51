import { noteOf } from '../extractive/information'
import { truncateMiddle } from '../truncate'
import type { CountTokens } from '../types'

/** Where sentences were left out of a recalled passage. */
export const EXCERPT_GAP = ' […] '

/** Sentences, with what ends them; a text without sentence ends is one sentence. */
export function sentences(text: string): string[] {
  return (
    text
      .match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n+|$)\s*/g)
      ?.map((s) => s.trim())
      .filter(Boolean) ?? [text]
  )
}

/** A light stem, enough to match "pets" to "pet" or "married" to "marry" the way the index's porter stemmer does. */
function stem(word: string): string {
  const w = word.replace(/'s$/, '')
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3)
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2).replace(/i$/, 'y')
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1)
  return w
}

/** Whether a word of the text matches a query term: the same stem, or a longer form of a long term. */
function matchesTerm(word: string, term: string): boolean {
  return word === term || stem(word) === stem(term) || (term.length >= 5 && word.startsWith(term))
}

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .match(/[\p{L}\p{N}]+/gu) ?? []

/** A sentence this short ("Thanks!") is not worth checking: leaving it out saves nothing. */
const MIN_QUOTED_WORDS = 4

/**
 * Checks sentences against texts the request already carries (the summary): a sentence all of whose
 * note's words one line of them holds is quoted there (an extractive summary quotes sentences as notes,
 * adding dates).
 */
export function quotedIn(present: readonly string[]): (sentence: string) => boolean {
  const lines = present
    .flatMap((t) => t.split('\n'))
    .map((l) => new Set(wordsOf(l)))
    .filter((l) => l.size >= MIN_QUOTED_WORDS)
  // Which lines hold each word: a sentence is compared only with the lines holding its rarest word
  // (a summary has hundreds of lines, and every candidate passage's sentences are asked about).
  const linesWith = new Map<string, number[]>()
  lines.forEach((l, i) => {
    for (const w of l) {
      const at = linesWith.get(w)
      if (at) at.push(i)
      else linesWith.set(w, [i])
    }
  })
  return (sentence) => {
    // The summary prints a sentence as a note (without "I", hedges and small talk): compare that.
    const words = wordsOf(noteOf(sentence))
    if (words.length < MIN_QUOTED_WORDS) return false
    let fewest: number[] | undefined
    for (const w of words) {
      const at = linesWith.get(w)
      if (!at) return false
      if (!fewest || at.length < fewest.length) fewest = at
    }
    return fewest!.some((i) => words.every((w) => lines[i]!.has(w)))
  }
}

/** A passage without the sentences the request already quotes, […] in their place; '' when it quotes them all. */
export function withoutQuoted(text: string, quoted: (sentence: string) => boolean): string {
  const parts = sentences(text)
  const keep = parts.map((p) => !quoted(p))
  if (keep.every(Boolean)) return text
  if (!keep.some(Boolean)) return ''
  const out: string[] = []
  const gap = EXCERPT_GAP.trim()
  parts.forEach((p, i) => {
    if (keep[i]) out.push(p)
    else if (out[out.length - 1] !== gap) out.push(gap)
  })
  return out.join(' ')
}

/** How many of the terms a sentence holds. */
function termHits(sentence: string, terms: readonly string[]): number {
  const words =
    sentence
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return terms.filter((t) => words.some((w) => matchesTerm(w, t))).length
}

/**
 * The part of a passage a pending message is about, within `maxTokens`: the sentence that holds most
 * of the query's terms, then the sentences around it (the one after first: an answer follows its
 * question), in their order, with […] where sentences were left out. A passage without a matching
 * sentence, or whose best sentence alone does not fit, is cut in the middle instead.
 */
export function excerpt(text: string, terms: readonly string[], maxTokens: number, countTokens: CountTokens): string {
  if (countTokens(text) <= maxTokens) return text
  const parts = sentences(text)
  const scores = parts.map((s) => termHits(s, terms))
  const best = scores.indexOf(Math.max(...scores))
  if (parts.length < 2 || scores[best]! === 0) return truncateMiddle(text, maxTokens, countTokens)
  const render = (keep: ReadonlySet<number>) => {
    let out = ''
    let last = -1
    for (let i = 0; i < parts.length; i++) {
      if (!keep.has(i)) continue
      out += (last === -1 ? (i > 0 ? EXCERPT_GAP.trimStart() : '') : i > last + 1 ? EXCERPT_GAP : ' ') + parts[i]
      last = i
    }
    return last < parts.length - 1 ? out + EXCERPT_GAP.trimEnd() : out
  }
  const keep = new Set([best])
  if (countTokens(render(keep)) > maxTokens) return truncateMiddle(text, maxTokens, countTokens)
  // Other matching sentences first, best first; then the neighbours of what is kept, nearest first.
  const order = [
    ...parts
      .map((_, i) => i)
      .filter((i) => i !== best && scores[i]! > 0)
      .sort((a, b) => scores[b]! - scores[a]! || a - b),
    ...[1, -1, 2, -2, 3, -3].map((d) => best + d)
  ]
  for (const i of order) {
    if (i < 0 || i >= parts.length || keep.has(i)) continue
    keep.add(i)
    if (countTokens(render(keep)) > maxTokens) keep.delete(i)
  }
  return render(keep)
}
