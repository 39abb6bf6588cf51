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
const WEAK_DECISION =
  /\b(?:instead(?: of)?|switch(?:ing|ed)? (?:to|over)|rather than|migrat(?:e|ing) to|replac(?:e|ing) (?:it|them|\w+) with|no longer)\b/i

export function decisionSignal(text: string): number {
  if (STRONG_DECISION.test(text)) return 1
  return WEAK_DECISION.test(text) ? 0.6 : 0
}

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
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

const WEEKDAY = '(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day'
/** Dates and plans said in words: "yesterday", "last weekend", "next Friday", "3 years ago", "going to". */
const WHEN = new RegExp(
  [
    '\\b(?:yesterday|tomorrow|tonight|today)\\b',
    `\\b(?:last|next|this|coming|past)\\s+(?:week(?:end)?|month|year|summer|winter|spring|fall|autumn|night|time|${WEEKDAY}|${MONTH})\\b`,
    `\\b(?:on|since|until|by|in)\\s+(?:${WEEKDAY}|${MONTH})\\b`,
    '\\b\\d+\\s+(?:years?|months?|weeks?|days?|hours?)\\b',
    '\\b(?:ago|upcoming|deadline|scheduled|appointment)\\b',
    "\\b(?:going to|gonna|planning|plan to|plans to|signed up|about to|will be|i'll|we'll)\\b"
  ].join('|'),
  'gi'
)

/**
 * Numbers of two or more digits, dates, times, money, percentages, and dates or plans in words
 * ("last weekend", "next month", "going to"): three or more saturate.
 */
export function numbersSignal(text: string): number {
  return Math.min(1, ((/\d/.test(text) ? count(text, QUANTITY) : 0) + count(text, WHEN)) / 3)
}

/**
 * Phatic sentences carry the social part of a chat, not its content: greetings, thanks, praise,
 * agreement, goodbyes, the question back. A sentence counts when it opens with such a cue, is short
 * and holds no number.
 */
const PHATIC = new RegExp(
  '^(?:oh|ah|aw+|well|and|so|but)?[\\s,!.]*(?:' +
    [
      'hi+|hey+|hello|yo|hiya|good (?:morning|afternoon|evening|night|to (?:see|hear from) you)|long time',
      'thanks?|thank you|thx|ty|cheers|much appreciated|appreciate it',
      'bye|goodbye|see (?:you|ya)|take care|talk (?:soon|later|to you)|catch you|have a (?:good|great|nice)',
      'ok(?:ay)?|sure|cool|nice|great|awesome|wow+|amazing|wonderful|fantastic|incredible|lovely|sweet|perfect|neat',
      'ha(?:ha)+|lol|lmao|yes+|yeah|yep|yup|nope|no problem|no worries|np|of course|definitely|absolutely|totally|exactly|indeed|right',
      'congrat\\w*|well done|good (?:job|luck|for you)|same here|me too|you too|agreed|i agree|i know|i hear you|i feel you',
      "sounds (?:good|great|fun|amazing|awesome|lovely|like)|that(?:'s| is| was| sounds) (?:so |really |super |very )?(?:great|awesome|amazing|cool|nice|wonderful|fantastic|awesome|lovely|sweet|fun|good|true|tough|hard)",
      "(?:i'?m |i am )?(?:so )?(?:happy|glad|proud|excited) (?:for|of) you|glad to hear|good to (?:know|hear)|love (?:that|it|this)",
      "how (?:are|have) you(?: been| doing)?|how about you|what about you|what'?s up|what'?s new|anything new|how'?s it going"
    ].join('|') +
    ')\\b',
  'i'
)

/** The share of a turn's words that sit in phatic sentences, from 0 to 1. */
export function phaticShare(text: string): number {
  const sentences = text.split(/(?<=[.!?…])\s+|\n+/).filter((x) => x.trim() !== '')
  let phatic = 0
  let total = 0
  for (const sentence of sentences) {
    const n = sentence.split(/\s+/).filter(Boolean).length
    total += n
    if (n <= 12 && !/\d/.test(sentence) && PHATIC.test(sentence.trim().replace(/^[\s"'“(*#>-]+/, ''))) phatic += n
  }
  return total === 0 ? 0 : phatic / total
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
  'I A An The This That These Those It Its We You He She They If And But Or So Also Then Now Here There What When Where Why How Which Who Yes No Ok OK Okay Thanks Thank Sure Great Hi Hello Hey Please Let Maybe Just Well Also Still Yet'.split(
    ' '
  )
)
const CAPITALIZED_RUN = /[A-Z][A-Za-z0-9'’&.-]*(?:[ \t]+(?:of |de |van |von |la |del )?[A-Z][A-Za-z0-9'’&.-]*)*/g

/** The capitalised names of a text that do not start a sentence ("Alice Martin", "Acme Corp"); a name at the start of a sentence loses its first word. */
export function entityNames(text: string): string[][] {
  const out: string[][] = []
  for (const sentence of text.split(/(?<=[.!?…:])\s+|\n+/)) {
    const s = sentence.replace(/^[\s"'“(*#>-]+/, '')
    for (const m of s.matchAll(CAPITALIZED_RUN)) {
      let words = m[0].replace(/[.'’!?,]+$/, '').split(/[ \t]+/)
      if (m.index === 0) words = words.slice(1)
      while (words.length > 0 && NOT_NAMES.has(words[0]!)) words = words.slice(1)
      const names = words.filter((w) => !/^(?:of|de|van|von|la|del|I['’]\w+)$/.test(w))
      if (names.length >= 2 || (names.length === 1 && names[0]!.length > 1)) out.push(names)
    }
  }
  return out
}

/**
 * Names: multi-word ones count 1 and single words 0.5, two saturate. `common` names (those the whole
 * conversation keeps repeating, such as the speakers' own) are left out: they tell nothing about a turn.
 */
export function entitiesSignal(
  text: string,
  common: ReadonlySet<string> = new Set(),
  found = entityNames(text)
): number {
  let score = 0
  for (const names of found) {
    const rare = names.filter((n) => !common.has(n.toLowerCase()))
    if (rare.length === 0) continue
    score += names.length >= 2 ? 1 : 0.5
  }
  return Math.min(1, score / 2)
}

export function turnSignals(text: string, commonNames?: ReadonlySet<string>, names?: string[][]): TurnSignals {
  return {
    decision: decisionSignal(text),
    numbers: numbersSignal(text),
    code: codeSignal(text),
    entities: entitiesSignal(text, commonNames, names)
  }
}

/**
 * The text without its phatic sentences, for a condenser or digest with little room: it should pick
 * what happened, not the greeting. A leading "(date)" stamp stays; empty when nothing else is left.
 */
export function withoutPhatic(text: string): string {
  const stamp = /^\([^)\n]{1,60}\)\s*/.exec(text)?.[0] ?? ''
  const body = text.slice(stamp.length)
  const kept = body.split(/(?<=[.!?…])\s+/).filter((sentence) => phaticShare(sentence) < 1)
  return `${stamp}${kept.join(' ')}`.trim()
}
