import { excerpt, quotedIn, withoutQuoted } from './excerpt'
import type { CountTokens, EngineRole } from '../types'
import { saysNothing } from '../extractive/information'
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
/** A hit written by the person the message asks about counts this much more. */
export const SPEAKER_BOOST = 1.5
/**
 * A hit next to another hit is part of an exchange about the topic (a question and its answer): it
 * gains this share of its best adjacent hit's relevance, so whole exchanges outrank lone mentions.
 */
export const EXCHANGE_WEIGHT = 0.5

export const RECALL_PREFIX =
  'Recalled from earlier in this conversation: original messages the summary condenses, verbatim ([…] marks left-out sentences), by day.\n'
/** The prefix when passages of the project's other chats are among them (each run labelled with its chat). */
export const RECALL_ACROSS_PREFIX =
  'Recalled: original messages from earlier in this conversation and from other chats of the same project, verbatim ([…] marks left-out sentences), by chat and day.\n'

export interface RecallCandidate {
  id: string
  seq: number
  role: EngineRole
  text: string
  /** The day to show ("8 May 2023"): from createdAt, or a date the conversation stated. Else `dateOf` gives it. */
  date?: string
  /** The same day as data, to match the dates a message asks about. */
  day?: StatedDate
  /** Set on a message of another chat of the project: seqs are that chat's, and its passages are labelled with it. */
  chat?: { id: string; title: string }
}

/** A candidate's day, shown and as data. */
export interface CandidateDate {
  date: string
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
  /**
   * Whether `present` already quotes a sentence (`quotedIn(present)` when absent): a caller that
   * plans often against the same summary builds it once and may remember its answers.
   */
  quoted?: (sentence: string) => boolean
  /** Days or months the pending message asks about ("on 3 May 2023"): hits from them rank higher. */
  mentioned?: readonly MentionedDate[]
  /** The pending message's content words: a passage too long to bring whole keeps the sentences holding them. */
  terms?: readonly string[]
  /**
   * Dates candidates that come without one, only when needed (a passage chosen, or a day asked
   * about): finding a stated date reads earlier messages, too slow for every hit and neighbour.
   */
  dateOf?: (c: RecallCandidate) => CandidateDate
  /** The side the message asks about (it names that person): that side's own messages rank higher. */
  speaker?: EngineRole
}

export interface RecallPassage extends RecallCandidate {
  date: string
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
export const dayHeading = (date: string, chat?: RecallCandidate['chat']) =>
  chat ? `\n[From the chat "${chat.title}", ${date}]\n` : `\n[${date}]\n`

/** Where a candidate sits: seqs repeat across chats, so another chat's carry its id. */
const keyAt = (c: Pick<RecallCandidate, 'chat'>, seq: number) => (c.chat ? `${c.chat.id}:${seq}` : `${seq}`)
const keyOf = (c: Pick<RecallCandidate, 'chat' | 'seq'>) => keyAt(c, c.seq)

/** This chat's passages first, then each other chat's (in the order chats were made: ids are time-ordered), each in time order. */
const inBlockOrder = (a: RecallCandidate, b: RecallCandidate) =>
  (a.chat?.id ?? '').localeCompare(b.chat?.id ?? '') || a.seq - b.seq

const prefixFor = (passages: readonly Pick<RecallCandidate, 'chat'>[]) =>
  passages.some((p) => p.chat) ? RECALL_ACROSS_PREFIX : RECALL_PREFIX

/** The block in time order, one heading per run of passages from the same chat and day. */
function blockText(passages: readonly RecallPassage[]): string {
  if (passages.length === 0) return ''
  let text = prefixFor(passages)
  let heading: string | undefined
  for (const p of [...passages].sort(inBlockOrder)) {
    const next = dayHeading(p.date, p.chat)
    if (next !== heading) text += next
    heading = next
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
  const base = countTokens(prefixFor(input.hits))
  if (base >= budget) return EMPTY_RECALL
  const present = (input.present ?? []).filter((t) => t.length > 0)
  const byKey = new Map<string, RecallCandidate>()
  for (const n of input.neighbours ?? []) byKey.set(keyOf(n), n)
  for (const h of input.hits) byKey.set(keyOf(h), h)
  const mentioned = input.mentioned ?? []
  const dated = new Map<string, CandidateDate>()
  const when = (c: RecallCandidate): CandidateDate => {
    if (c.date !== undefined) return { date: c.date, day: c.day }
    let d = dated.get(keyOf(c))
    if (!d) dated.set(keyOf(c), (d = input.dateOf?.(c) ?? { date: 'earlier' }))
    return d
  }
  const onMentioned = (h: RecallCandidate): boolean => {
    const day = mentioned.length ? when(h).day : undefined
    return day !== undefined && matchesMentioned(day, mentioned)
  }
  // Relevance: higher is better (bm25 scores are negative, lower is better).
  const relevance = (h: RecallHit): number =>
    -h.score * (onMentioned(h) ? DATE_MATCH_BOOST : 1) * (input.speaker && h.role === input.speaker ? SPEAKER_BOOST : 1)
  const own = new Map<string, number>()
  for (const h of input.hits) own.set(keyOf(h), Math.max(own.get(keyOf(h)) ?? 0, relevance(h)))
  const adjacent = (h: RecallCandidate) =>
    Math.max(own.get(keyAt(h, h.seq - 1)) ?? 0, own.get(keyAt(h, h.seq + 1)) ?? 0)
  const ranked = input.hits
    .map((h) => ({ ...h, relevance: relevance(h) + EXCHANGE_WEIGHT * adjacent(h) }))
    .sort((a, b) => b.relevance - a.relevance || a.score - b.score)
  const best = Math.max(...ranked.map((h) => h.relevance))
  const hits = ranked.filter(
    (h, i) =>
      ranked.findIndex((o) => o.id === h.id) === i &&
      h.text.trim().length > 0 &&
      // A passage that says nothing ("Bye!", "Sure thing, any time!") matched on small talk only.
      !saysNothing(h.text) &&
      (best <= 0 || h.relevance >= best * MIN_RELATIVE_SCORE) &&
      !(h.text.trim().length >= 20 && present.some((t) => t.includes(h.text.trim())))
  )

  const quoted = input.quoted ?? quotedIn(present)
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
    const { date, day } = when(c)
    const heading = days.has(dayHeading(date, c.chat)) ? '' : dayHeading(date, c.chat)
    const lineCount: CountTokens = (t) => countTokens(heading + label + t)
    // Sentences the summary already quotes would only repeat it: […] takes their place.
    const whole = c.text.trim()
    let text = withoutQuoted(whole, quoted)
    if (!text) return false
    let cost = lineCount(text)
    const limit = Math.min(cap, budget - used)
    if (cost > limit) {
      if (limit < MIN_PASSAGE_TOKENS) return false
      text = excerpt(text, terms, limit, lineCount)
      cost = lineCount(text)
      if (cost > limit) return false
    }
    const truncatedChars = whole.length - text.length
    chosen.push({
      ...c,
      date,
      ...(day ? { day } : {}),
      line: label + text,
      ...(truncatedChars > 0 ? { truncatedChars } : {}),
      ...(contextFor ? { contextFor } : {})
    })
    ids.add(c.id)
    days.add(dayHeading(date, c.chat))
    used += cost
    return true
  }
  const neighbourOf = (h: RecallCandidate): RecallCandidate | undefined => {
    // A question's answer follows it; a reply's question precedes it.
    const order = h.role === 'user' ? [h.seq + 1, h.seq - 1] : [h.seq - 1, h.seq + 1]
    for (const seq of order) {
      const n = byKey.get(keyAt(h, seq))
      if (n && !ids.has(n.id) && n.text.trim() && !saysNothing(n.text)) return n
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
  const passages = [...chosen].sort(inBlockOrder)
  return { passages, text, tokens, messageIds: passages.map((p) => p.id) }
}
