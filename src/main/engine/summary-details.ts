import { noteOf, saysNothing } from './extractive/information'
import { splitSentences } from './extractive/sentences'
import type { CountTokens } from './types'

/**
 * A model's summary often drops the concrete facts a later question needs: names, numbers, dates,
 * identifiers. After it is written, the ones of the summarized span that it left out are found and
 * the sentences that state the most of them are appended as a short "Details" list, within the
 * summary's budget. Pure: the same input gives the same list.
 */

export const DETAILS_HEADING = 'Details:'

/** Words that start sentences or are capitalized for other reasons than being a name. */
const NOT_NAMES = new Set(
  (
    'I The A An And But Or So If Then When What Which Who Why How Yes No Ok Okay Sure Thanks Thank Hi Hey Hello ' +
    'This That These Those It Its We You He She They My Our Your Their Let Please Also Just Maybe Great Good Nice ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday User Assistant System Tool Summary Context'
  ).split(' ')
)

/** Numbers with what sticks to them (07:10, $450, 3.5%, 2023), identifiers (step7, v2.1, API-42), and names. */
const FACT = /\$?\d[\d,.:/-]*%?|\b[A-Za-z]+[_-]?\d[\w.-]*\b|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b/g

/** The facts a sentence states, normalized for comparison. */
export function factsOf(sentence: string): string[] {
  const out = new Set<string>()
  for (const m of sentence.matchAll(FACT)) {
    const raw = m[0].replace(/[.,:/-]+$/, '')
    if (!raw) continue
    if (/^[A-Z]/.test(raw)) {
      // A single capitalized word at the very start of the sentence is usually not a name.
      const words = raw.split(/\s+/).filter((w) => !NOT_NAMES.has(w))
      if (words.length === 0) continue
      if (m.index === 0 && words.length === 1 && raw.split(/\s+/).length === 1) continue
      out.add(words.join(' ').toLowerCase())
    } else if (/\d/.test(raw) && raw.replace(/\D/g, '').length >= 1 && !/^\d$/.test(raw)) {
      out.add(raw.toLowerCase())
    }
  }
  return [...out]
}

export interface DetailsInput {
  /** The summarized span: the previous summary and the messages, each with who said it. */
  sources: readonly { label?: string; text: string }[]
  summary: string
  /** What the summary may take in all, Details included. */
  targetTokens: number
  countTokens: CountTokens
  /** At most this many lines. */
  maxLines?: number
}

/** The summary with a Details list of the facts it left out, or the summary as it was. */
export function withMissingDetails(input: DetailsInput): string {
  const { summary, countTokens } = input
  if (summary.includes(`\n${DETAILS_HEADING}\n`)) return summary
  const have = summary.toLowerCase()
  const seen = new Set<string>()
  const candidates: Array<{ text: string; missing: string[]; order: number }> = []
  let order = 0
  for (const source of input.sources) {
    const said = source.label ? `${source.label}: ` : ''
    for (const line of source.text.split('\n')) {
      for (const sentence of splitSentences(line)) {
        // The same notes as the offline summary: small talk never, and each sentence without its filler.
        if (saysNothing(sentence)) continue
        const text = noteOf(sentence.trim())
        if (text.length < 8 || seen.has(text)) continue
        seen.add(text)
        const missing = factsOf(text).filter((f) => !have.includes(f))
        const shown = text.length > 160 ? `${text.slice(0, 157)}…` : text
        if (missing.length > 0) candidates.push({ text: `${said}${shown}`, missing, order: order++ })
      }
    }
  }
  if (candidates.length === 0) return summary
  // A fact stated often is one the conversation leaned on; a sentence stating several is worth more.
  const mentions = new Map<string, number>()
  for (const c of candidates) for (const f of c.missing) mentions.set(f, (mentions.get(f) ?? 0) + 1)
  const covered = new Set<string>()
  const chosen: typeof candidates = []
  const lines = () =>
    `${summary.trimEnd()}\n\n${DETAILS_HEADING}\n${[...chosen]
      .sort((a, b) => a.order - b.order)
      .map((c) => `- ${c.text}`)
      .join('\n')}`
  const maxLines = input.maxLines ?? 12
  let misses = 0
  while (chosen.length < maxLines && misses < 20) {
    let best: (typeof candidates)[number] | undefined
    let bestScore = 0
    for (const c of candidates) {
      if (chosen.includes(c)) continue
      const fresh = c.missing.filter((f) => !covered.has(f))
      const score = fresh.reduce((s, f) => s + 1 + Math.log2(mentions.get(f)!), 0) / Math.sqrt(c.text.length / 40 + 1)
      if (score > bestScore) [best, bestScore] = [c, score]
    }
    if (!best) break
    chosen.push(best)
    if (countTokens(lines()) > input.targetTokens) {
      chosen.pop()
      candidates.splice(candidates.indexOf(best), 1)
      misses++
      continue
    }
    for (const f of best.missing) covered.add(f)
  }
  return chosen.length ? lines() : summary
}
