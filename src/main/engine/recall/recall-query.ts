/**
 * What a pending message is about, as an FTS5 query over the summarized originals: its content
 * words OR-ed together (bm25 ranks messages that match more, and rarer, words first).
 */

import { saysNothing } from '../extractive/information'

/** Function words, question words and the verbs questions are built with: they say nothing about the topic. */
const STOP_WORDS = new Set(
  (
    'a an the and or but nor if then else so than that this these those there here of to in on at by for with from into onto ' +
    'over under about above below after before between through during without within upon off out up down again ' +
    'i me my mine myself you your yours yourself he him his himself she her hers herself it its itself we us our ours ' +
    'they them their theirs themselves one ones someone something anyone anything everyone everything ' +
    'what when where who whom whose which why how whatever whenever wherever whichever ' +
    'is am are was were be been being do does did doing done have has had having ' +
    'can could would should shall will may might must ought ' +
    'not no yes all any both each few more most other some such only own same too very just also ever ' +
    'as like well really much many lot lots please thanks thank okay ok hi hello hey ' +
    'tell told say says said saying know knew known think thought remember recall mention mentioned ' +
    'get got getting go going went make made let lets want wanted kind sort type thing things way ' +
    'cannot don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn ll ve re'
  ).split(/\s+/)
)

/** Words this long match their other forms too (a prefix term); shorter ones must match as they are. */
export const PREFIX_MIN_LENGTH = 5
/** More terms make the query slower without finding better passages. */
export const MAX_TERMS = 16

/** Of a long message, the query reads this many characters from its start and as many from its end. */
export const ASKED_EDGE_CHARS = 10_000

/**
 * What a message asks, as far as a query needs it: a long one's start and end, where a question
 * around a pasted text sits (the terms are capped at MAX_TERMS anyway). Reading all of a
 * 1,000,000-character message for them held every other request up for ~150 ms.
 */
export function askedText(text: string): string {
  if (text.length <= 2 * ASKED_EDGE_CHARS) return text
  return `${text.slice(0, ASKED_EDGE_CHARS)}\n${text.slice(-ASKED_EDGE_CHARS)}`
}

/** The content words of a text, lower-cased, in first-seen order, without repeats. */
export function contentWords(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  const out: string[] = []
  const seen = new Set<string>()
  for (const w of words) {
    // One letter is never a topic; a lone digit may be (a year, a port), but two are needed to be specific.
    if (w.length < 2 || STOP_WORDS.has(w) || seen.has(w)) continue
    seen.add(w)
    out.push(w)
  }
  return out
}

/**
 * An FTS5 MATCH expression for a pending message, or undefined when it has no content words or says
 * nothing beyond small talk ("Bye!", "Thanks! Appreciate the offer."): searching for those finds only
 * the chat's other goodbyes, and the room is better left to the retained messages.
 * Every term is a quoted string of letters and digits only, so the result is never a syntax error.
 */
export function recallQuery(text: string, without: readonly string[] = []): string | undefined {
  if (saysNothing(text)) return undefined
  const terms = recallTerms(text, without)
  return terms.length ? terms.join(' OR ') : undefined
}

/** The query's terms, each a valid FTS5 expression on its own ("shoes"*, "new"). */
export function recallTerms(text: string, without: readonly string[] = []): string[] {
  return (
    contentWords(text)
      .filter((w) => !without.includes(w))
      // Longer words first: they are usually the specific ones when the message has many.
      .map((w, i) => ({ w, i }))
      .sort(
        (a, b) => (a.w.length >= PREFIX_MIN_LENGTH ? 0 : 1) - (b.w.length >= PREFIX_MIN_LENGTH ? 0 : 1) || a.i - b.i
      )
      .slice(0, MAX_TERMS)
      .map(({ w }) => (w.length >= PREFIX_MIN_LENGTH ? `"${w}"*` : `"${w}"`))
  )
}
