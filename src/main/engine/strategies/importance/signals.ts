/**
 * Surface signals of an important turn (Sigma ADR-006 replaces its mission-alignment term with these,
 * since Distill has no embeddings): decisions, numbers / dates / money, code, named entities. Each is
 * a number from 0 to 1.
 */

export interface TurnSignals {
  decision: number
  numbers: number
  code: number
  entities: number
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0

const STRONG_DECISION = new RegExp(
  [
    "\\b(?:we|i|they|you)(?:'ve| have| just| finally| all)?\\s+(?:decided|agreed|settled on|chose|opted|went with|committed to)\\b",
    "\\blet'?s\\s+(?:go with|use|switch to|stick with|adopt|pick|choose|drop|keep|do)\\b",
    "\\b(?:we|i)(?:'ll| will| are going to)\\s+(?:use|go with|switch to|adopt|stick with)\\b",
    '\\b(?:decision|decided|agreed|the plan is|from now on|going forward|final answer|go with)\\b'
  ].join('|'),
  'i'
)
const WEAK_DECISION = /\b(?:instead(?: of)?|switch(?:ing|ed)? (?:to|over)|rather than|migrat(?:e|ing) to|replac(?:e|ing) (?:it|them|\w+) with|no longer)\b/i

export function decisionSignal(text: string): number {
  if (STRONG_DECISION.test(text)) return 1
  return WEAK_DECISION.test(text) ? 0.6 : 0
}

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
/** One alternation, so "€1,840" or "2025-03-14" count once. */
const QUANTITY = new RegExp(
  [
    '[$€£¥]\\s?\\d[\\d,.]*(?:\\s?[kKmMbB]\\b)?',
    '\\b\\d[\\d,.]*\\s?(?:USD|EUR|GBP|CHF|JPY|dollars|euros|pounds)\\b',
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    `\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b`,
    '\\b\\d{1,2}:\\d{2}\\b',
    '\\d+(?:\\.\\d+)?\\s?%',
    '\\b\\d[\\d,.]*\\d\\b'
  ].join('|'),
  'g'
)

/** Numbers of two or more digits, dates, times, money, percentages: three or more saturate. */
export function numbersSignal(text: string): number {
  return /\d/.test(text) ? Math.min(1, count(text, QUANTITY) / 3) : 0
}

const IDENTIFIERS = new RegExp(
  [
    '`[^`\\n]+`',
    '\\b[a-z][a-z0-9]*_[a-z0-9_]+\\b',
    '\\b[a-z]+[A-Z][A-Za-z0-9]*\\b',
    '\\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\\b',
    '\\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\\b',
    '\\b[\\w.]+\\(\\)',
    '(?:^|\\s)--[a-z][\\w-]+',
    '(?:^|[\\s(])(?:~|\\.{1,2})?/?[\\w.-]+/[\\w./-]+',
    '\\b[\\w-]+\\.(?:ts|tsx|js|mjs|py|rs|go|java|sql|json|ya?ml|toml|md|sh|css|html)\\b'
  ].join('|'),
  'g'
)

/** A code block counts fully; otherwise identifiers, paths, flags and inline code, three or more saturate. */
export function codeSignal(text: string): number {
  if (/```|^(?: {4}|\t)\S/m.test(text)) return 1
  return Math.min(1, count(text, IDENTIFIERS) / 3)
}

const NOT_NAMES = new Set(
  'I A An The This That These Those It Its We You He She They If And But Or So Also Then Now Here There What When Where Why How Which Who Yes No Ok OK Okay Thanks Thank Sure Great Hi Hello Hey Please Let Maybe Just Well Also Still Yet'.split(' ')
)
const CAPITALIZED_RUN = /[A-Z][A-Za-z0-9'’&.-]*(?:[ \t]+(?:of |de |van |von |la |del )?[A-Z][A-Za-z0-9'’&.-]*)*/g

/**
 * Capitalised names that do not start a sentence ("Alice Martin", "Acme Corp"): multi-word ones count
 * 1, single words 0.5; two saturate. A name at the start of a sentence loses its first word.
 */
export function entitiesSignal(text: string): number {
  let score = 0
  for (const sentence of text.split(/(?<=[.!?…:])\s+|\n+/)) {
    const s = sentence.replace(/^[\s"'“(*#>-]+/, '')
    for (const m of s.matchAll(CAPITALIZED_RUN)) {
      let words = m[0].replace(/[.'’]+$/, '').split(/[ \t]+/)
      if (m.index === 0) words = words.slice(1)
      while (words.length > 0 && NOT_NAMES.has(words[0]!)) words = words.slice(1)
      const names = words.filter((w) => !/^(?:of|de|van|von|la|del)$/.test(w))
      if (names.length >= 2) score += 1
      else if (names.length === 1 && names[0]!.length > 1) score += 0.5
    }
  }
  return Math.min(1, score / 2)
}

export function turnSignals(text: string): TurnSignals {
  return { decision: decisionSignal(text), numbers: numbersSignal(text), code: codeSignal(text), entities: entitiesSignal(text) }
}
