import { excerpt } from './excerpt'
import type { CountTokens, EngineRole } from '../types'
import { matchesMentioned, type MentionedDate, type StatedDate } from './recall-date'

/** Recall's share of the usable budget unless the settings say otherwise. */
export const DEFAULT_RECALL_PERCENT = 15
/** Hits first: this share of the recall budget goes to the best hits before any neighbour is added. */
export const HITS_FIRST_SHARE = 0.7
/** No single passage takes more of the recall budget than this; a longer one is cut in the middle. */
export const MAX_PASSAGE_SHARE = 0.4
/** A neighbour is context, not the find: it gets less room. */
export const MAX_NEIGHBOUR_SHARE = 0.25
/** Below this much room a hit is not worth cutting to fit. */
export const MIN_PASSAGE_TOKENS = 40
/** Hits scoring under this fraction of the best hit's bm25 match only common words: left out. */
export const MIN_RELATIVE_SCORE = 0.15
/** A hit from a day (or month) the message asks about counts this much more. */
export const DATE_MATCH_BOOST = 2

export const RECALL_PREFIX =
  'Recalled from earlier in this conversation: original messages the summary condenses, verbatim ([…] marks left-out sentences), by day.\n'

export interface RecallCandidate {
  id: string
  seq: number
  role: EngineRole
  text: string
  /** The day to show ("8 May 2023"): from createdAt, or a date the conversation stated. */
  date: string
  /** The same day as data, to match the dates a message asks about. */
  day?: StatedDate
}

export interface RecallHit extends RecallCandidate {
  /** FTS5 bm25: lower (more negative) is a better match. */
  score: number
}

export interface RecallInput {
  /** Search hits, best first. */
  hits: readonly RecallHit[]
  /** Messages next to the hits (any order), offered as context for them. */
  neighbours?: readonly RecallCandidate[]
  /** Tokens the whole recalled block may take, framing included. */
  budget: number
  countTokens: CountTokens
  /** Texts the request already carries (the summary): a hit found whole in them is not repeated. */
  present?: readonly string[]
  /** Days or months the pending message asks about ("on 3 May 2023"): hits from them rank higher. */
  mentioned?: readonly MentionedDate[]
  /** The pending message's content words: a passage too long to bring whole keeps the sentences holding them. */
  terms?: readonly string[]
}

export interface RecallPassage extends RecallCandidate {
  /** The passage as shown under its day: speaker and (possibly excerpted) text. */
  line: string
  truncatedChars?: number
  /** Set on a neighbour: the hit it gives context to. */
  contextFor?: string
}

export interface RecallPlan {
  /** In time order. */
  passages: RecallPassage[]
  /** The recalled block as the model receives it ('' when nothing was recalled). */
  text: string
  tokens: number
  messageIds: string[]
}

export const EMPTY_RECALL: RecallPlan = { passages: [], text: '', tokens: 0, messageIds: [] }

/** What recall may use: its share of U, but never more than the rest of the request leaves free. */
export function recallRoom(options: { usable: number; usedTokens: number; percent: number }): number {
  const cap = Math.floor((options.usable * Math.max(0, options.percent)) / 100)
  return Math.max(0, Math.min(cap, options.usable - options.usedTokens))
}

/** A recalled passage's line under its day heading. */
export function recallLabel(c: Pick<RecallCandidate, 'role'>): string {
  return `${c.role}: `
}

/** The heading of a day's recalled passages: the label costs once per day, not per passage. */
export const dayHeading = (date: string) => `\n[${date}]\n`

/** The block in time order, one heading per run of passages from the same day. */
function blockText(passages: readonly RecallPassage[]): string {
  if (passages.length === 0) return ''
  let text = RECALL_PREFIX
  let day: string | undefined
  for (const p of [...passages].sort((a, b) => a.seq - b.seq)) {
    if (p.date !== day) text += dayHeading(p.date)
    day = p.date
    text += `${p.line}\n`
  }
  return text.trimEnd()
}

/**
 * Chooses the recalled passages (DESIGN §11): the best hits verbatim, each with a neighbour for
 * context when room allows, long ones cut in the middle with the [...N...] marker, without repeats,
 * in time order, each labelled with its date and speaker. Never over the budget.
 */
export function planRecall(input: RecallInput): RecallPlan {
  const { countTokens, budget } = input
  if (budget <= 0 || input.hits.length === 0) return EMPTY_RECALL
  const base = countTokens(RECALL_PREFIX)
  if (base >= budget) return EMPTY_RECALL
  const present = (input.present ?? []).filter((t) => t.length > 0)
  const bySeq = new Map<number, RecallCandidate>()
  for (const n of input.neighbours ?? []) bySeq.set(n.seq, n)
  for (const h of input.hits) bySeq.set(h.seq, h)
  const mentioned = input.mentioned ?? []
  // Relevance: higher is better (bm25 scores are negative, lower is better).
  const relevance = (h: RecallHit): number =>
    mentioned.length && h.day && matchesMentioned(h.day, mentioned) ? -h.score * DATE_MATCH_BOOST : -h.score
  const ranked = input.hits
    .map((h) => ({ ...h, relevance: relevance(h) }))
    .sort((a, b) => b.relevance - a.relevance || a.score - b.score)
  const best = Math.max(...ranked.map((h) => h.relevance))
  const hits = ranked.filter(
    (h, i) =>
      ranked.findIndex((o) => o.id === h.id) === i &&
      h.text.trim().length > 0 &&
      (best <= 0 || h.relevance >= best * MIN_RELATIVE_SCORE) &&
      !(h.text.trim().length >= 20 && present.some((t) => t.includes(h.text.trim())))
  )

  const chosen: RecallPassage[] = []
  const ids = new Set<string>()
  const days = new Set<string>()
  const terms = input.terms ?? []
  let used = base
  /** Adds a passage cut to at most `cap` tokens (its line's own count, framing included: an overestimate). */
  const add = (c: RecallCandidate, cap: number, contextFor?: string): boolean => {
    if (ids.has(c.id)) return false
    const label = recallLabel(c)
    // A new day costs its heading once (a day out of order may cost it again: the block is checked below).
    const heading = days.has(c.date) ? '' : dayHeading(c.date)
    const lineCount: CountTokens = (t) => countTokens(heading + label + t)
    let text = c.text.trim()
    let cost = lineCount(text)
    let truncatedChars: number | undefined
    const limit = Math.min(cap, budget - used)
    if (cost > limit) {
      if (limit < MIN_PASSAGE_TOKENS) return false
      const cut = excerpt(text, terms, limit, lineCount)
      truncatedChars = text.length - cut.length
      text = cut
      cost = lineCount(text)
      if (cost > limit) return false
    }
    chosen.push({ ...c, line: label + text, ...(truncatedChars ? { truncatedChars } : {}), ...(contextFor ? { contextFor } : {}) })
    ids.add(c.id)
    days.add(c.date)
    used += cost
    return true
  }
  const neighbourOf = (h: RecallCandidate): RecallCandidate | undefined => {
    // A question's answer follows it; a reply's question precedes it.
    const order = h.role === 'user' ? [h.seq + 1, h.seq - 1] : [h.seq - 1, h.seq + 1]
    for (const seq of order) {
      const n = bySeq.get(seq)
      if (n && !ids.has(n.id) && n.text.trim()) return n
    }
    return undefined
  }

  const passageCap = Math.floor(budget * MAX_PASSAGE_SHARE)
  const hitsFirst = Math.floor(budget * HITS_FIRST_SHARE)
  // 1. The best hits, up to their share.
  const taken: RecallHit[] = []
  for (const h of hits) {
    if (used >= hitsFirst) break
    if (add(h, Math.min(passageCap, Math.max(MIN_PASSAGE_TOKENS, hitsFirst - used)))) taken.push(h)
  }
  // 2. A neighbour for each of them, best hit first.
  for (const h of taken) {
    const n = neighbourOf(h)
    if (n) add(n, Math.floor(budget * MAX_NEIGHBOUR_SHARE), h.id)
  }
  // 3. Whatever room is left goes to further hits.
  for (const h of hits) if (!ids.has(h.id) && budget - used >= MIN_PASSAGE_TOKENS) add(h, passageCap)

  // Each line was counted with its own framing, so the block is normally well under the sum; check
  // the block as sent anyway and give up the last-chosen passages until it fits.
  let text = blockText(chosen)
  let tokens = countTokens(text)
  while (chosen.length > 0 && tokens > budget) {
    chosen.pop()
    text = blockText(chosen)
    tokens = chosen.length ? countTokens(text) : 0
  }
  if (chosen.length === 0) return EMPTY_RECALL
  const passages = [...chosen].sort((a, b) => a.seq - b.seq)
  return { passages, text, tokens, messageIds: passages.map((p) => p.id) }
}
