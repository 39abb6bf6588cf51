/**
 * How informative a sentence is, from surface features alone: the facts people come back for are
 * names, numbers, dates, money, identifiers, decisions and constraints; pleasantries are not.
 */
import type { Unit } from './sentences'
import { saysNothing } from './information'

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
const MONEY = /[$€£¥]\s?\d[\d,.]*(?:\s?[kKmM]\b)?|\b\d[\d,.]*\s?(?:USD|EUR|GBP|CHF|dollars|euros|pounds|bucks)\b/g
const DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b|\\b\\d{1,2}:\\d{2}\\b|\\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\\b`,
  'g'
)
const VERSION = /\bv?\d+\.\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)?\b/g
const PERCENT = /\d(?:[\d.]*)\s?%/g
/** Numbers of two or more digits: single digits ("2 options") say little. */
const NUMBER = /\b\d[\d,.]*\d\b/g

const BACKTICK = /`[^`\n]+`/g
const PATH = /(?:^|[\s(])(?:~|\.{1,2})?\/?[\w.-]+\/[\w./-]+/g
const SNAKE = /\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g
const CAMEL = /\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b/g
const CONSTANT = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g
const CALL = /\b[\w.]+\(\)/g
const FLAG = /(?:^|\s)--?[a-z][\w-]+/g
const DOTTED = /\b[a-z][\w-]*\.(?:ts|js|tsx|py|sql|json|ya?ml|toml|md|rs|go|sh|env|conf|csv|lock)\b/gi

/** Capitalised words that are not the first word of the sentence: names, places, products. */
const PROPER = /(?<=[\s(,"'“])[A-Z][a-zà-ÿ]+(?:[-'][A-Z]?[a-zà-ÿ]+)?\b/g
const ACRONYM = /\b[A-Z]{2,6}s?\b/g
const NOT_NAMES = new Set([
  'I',
  'The',
  'This',
  'That',
  'It',
  'We',
  'You',
  'If',
  'And',
  'But',
  'So',
  'Also',
  'Then',
  'OK',
  'Ok',
  'Yes',
  'No',
  'Thanks',
  'Sure',
  'Great'
])

const DECISION =
  /\b(?:we|i)\s+(?:(?:have|'ve|just|finally)\s+)?(?:decided|agreed|settled|chose|picked|went with|booked|confirmed|signed|committed)\b|\b(?:let'?s|we'?ll|we will|i'?ll|i will|going to|gonna)\s+(?:go with|use|stick with|book|switch to|keep|pick)\b|\b(?:decision|agreed|decided|settled on|final answer|the plan is|go with)\b/i
const CONSTRAINT =
  /\b(?:must|mustn't|never|always|prefer(?:s|red|ence)?|deadline|budget|can't|cannot|don't want|won't|allergic|allergy|require[sd]?|requirement|no more than|at most|at least|maximum|minimum|limit|avoid|hate|non-negotiable)\b/i
const SOFT_CONSTRAINT = /\b(?:important|make sure|has to|have to|need to|should)\b/i
const PLEASANTRY =
  /^(?:hi|hello|hey|hmm+|hm|ah|alright|fair enough|i see|sorry|noted|will do|no worries|cheers|thanks|thank you|thx|great|sure|ok(?:ay)?|cool|awesome|perfect|nice|sounds good|got it|of course|absolutely|no problem|you'?re welcome|glad|happy to help|makes sense|good (?:question|point|idea)|exactly|right|yes|yeah|wow|haha|lol|excellent|amazing|fantastic)\b[^?]*$|happy to help|hope (?:this|that) helps|let me know if|feel free to|glad (?:to|i could|that)|good luck|have fun|you'?re welcome/i

/**
 * Chat small talk in any conversation: greetings, thanks, agreement, praise, wishes and reactions to what
 * the other person said. Such a sentence says nothing the next reader needs unless it also carries content.
 */
const PHATIC =
  /^(?:hi|hello|hey|yo|hiya|good (?:morning|afternoon|evening|night)|bye|goodbye|see (?:you|ya)|talk (?:to you )?(?:soon|later)|take care|cheers|congrats|congratulations|aw+|o+h+|wow+|whoa|yay|ha(?:ha)+|lol|omg|yikes|phew|ugh|same(?: here)?|me too|you too|so true|true|totally|definitely|exactly|absolutely|indeed|agreed|for sure|of course)\b|\b(?:how (?:are|have) you|how'?s it going|what'?s up|long time no|nice to (?:see|hear|meet)|good to (?:see|hear)|glad to hear|great to hear|happy to hear|sorry to hear|(?:i )?(?:totally |completely |100% |so )?agree|keep (?:me|you) posted|keep (?:it|that) up|can'?t wait to (?:see|hear)|proud of you|happy for you|thanks? (?:you )?(?:so much|for)|means? a lot|take care|you'?re (?:so |very |really )?(?:welcome|right|amazing|awesome|sweet|kind|the best|doing (?:great|amazing|awesome))|that'?s (?:so |really |very |just )?(?:great|awesome|amazing|cool|nice|sweet|wonderful|fantastic|lovely|good|incredible|inspiring|beautiful|true|fair)|sounds? (?:so |really )?(?:great|awesome|amazing|fun|good|lovely|like (?:a|so|such|fun))|what a (?:great|lovely|nice|wonderful|beautiful)|how (?:cool|nice|sweet|awesome|lovely|exciting|wonderful)|(?:love|loving) (?:that|it|this)|i'?m (?:so )?(?:glad|happy|thrilled|excited) (?:for|to hear|that you)|hope (?:you|it|all|that|everything)|good luck|have fun|let me know|feel free to|you got this|bye for now)/i
/** A reaction to the other person (the sentence is about "you"/"that") with no first-person content. */
const REACTION = /^(?:that|this|it|you|your|what|how|wow)\b/i
const FIRST_PERSON = /\b(?:I|I'm|I've|I'd|I'll|me|my|mine|we|we're|we've|our|us)\b/
/** Something happened: a first-person subject with a past-tense verb. */
const EVENT =
  /\b(?:I|we|my \w+|our \w+)\s+(?:\w+\s+){0,2}?(?:\w{3,}ed|went|got|made|took|saw|met|ran|bought|began|found|gave|had|did|won|lost|left|came|wrote|read|drove|flew|sold|built|taught|brought|kept|told|became|chose|spent|began|caught|grew|held|heard|paid|sang|swam|threw|wore|fell|rode|ate|drew|joined)\b/i
/** Intentions and plans. */
const PLAN =
  /\b(?:I'?m|I am|we'?re|we are)\s+(?:\w+\s+)?(?:going|planning|hoping|thinking(?: about| of)?|about|trying|starting|looking forward)\b|\b(?:I|we)\s*(?:will|'ll|plan|want|intend|hope|aim)\b|\bnext (?:week|month|year|weekend|time)\b/i
/** Lasting facts about the speaker: preferences, possessions, work, identity. */
const PERSONAL =
  /\b(?:I|we)\s+(?:really\s+|also\s+|still\s+)?(?:love|like|enjoy|prefer|hate|adore|collect|own|have|work|live|study|play|volunteer|teach|believe|miss)\b|\bmy (?:favou?rite|\w+ (?:is|are|was|were|has|had))\b|\bI'?m (?:a|an|from|into|allergic|learning|working|studying)\b|\bI am (?:a|an|from)\b/i
/** When: relative times the day of the message makes exact, and seasons. */
const WHEN =
  /\b(?:yesterday|tomorrow|tonight|last (?:night|week|weekend|month|year|summer|winter|spring|fall)|next (?:week|weekend|month|year)|(?:days?|weeks?|months?|years?) ago|this (?:week|weekend|month|year)|(?:this|last|next) (?:sun|mon|tues|wednes|thurs|fri|satur)day|since \d{4}|in \d{4})\b/i
/** Talk about everyone or life in general rather than the speaker's own doings. */
const GENERAL =
  /^(?:let'?s|we (?:can|should|all)|it'?s (?:so |really )?(?:important|key|great|nice|good|hard|tough)|(?:life|people|everyone|everybody)\b)|\b(?:ourselves|each other|together)\b/i
/** A name used to address the other person ("Thanks, Anna!") is not a fact about anyone. */
const VOCATIVE = /(?:,\s*|\b(?:hey|hi|hello|thanks|thank you|dear|bye|congrats)\s+)[A-Z][a-z]+(?=\s*[!?.,]|\s*$)/g

/** Below this a sentence is not worth printing even when the budget has room (pleasantries, fragments). */
export const MIN_SCORE = 0.5

export interface ScoreContext {
  /** Term ids of the unit and the document frequency of every id, for a rarity bonus. */
  termIds: readonly number[]
  df: readonly number[]
  units: number
  focus: ReadonlySet<number>
}

const cap = (n: number, max: number) => Math.min(n, max)

export function scoreUnit(unit: Unit, ctx: ScoreContext): number {
  const t = unit.text
  const words = t.split(/\s+/).length
  let score = 1

  // Cheap character checks first: most sentences have no digit, underscore, slash or backtick.
  if (/\d/.test(t)) {
    const money = count(t, MONEY)
    const versions = count(t, VERSION)
    const numbers = Math.max(0, count(t, NUMBER) - money - versions)
    score += cap(money * 1.6 + count(t, DATE) * 1.6 + versions * 1.2 + count(t, PERCENT) * 1.0 + numbers * 0.8, 4)
  } else if (/day\b/.test(t)) {
    score += cap(count(t, DATE) * 1.6, 4)
  }

  let idents = count(t, CAMEL)
  if (t.includes('`')) idents += count(t, BACKTICK) * 1.2
  if (t.includes('/')) idents += count(t, PATH)
  if (t.includes('_')) idents += count(t, SNAKE) + count(t, CONSTANT)
  if (t.includes('(')) idents += count(t, CALL) * 0.6
  if (t.includes('-')) idents += count(t, FLAG) * 0.6
  if (t.includes('.')) idents += count(t, DOTTED)
  score += cap(idents, unit.kind === 'code' ? 2.5 : 3.5)

  const names = Math.max(0, (t.match(PROPER) ?? []).filter((w) => !NOT_NAMES.has(w)).length - count(t, VOCATIVE))
  score += cap(names * 0.7, 2.8) + cap(count(t, ACRONYM) * 0.3, 0.9)

  // What a person would come back for in a chat: events, plans, lasting personal facts, and when.
  if (unit.kind === 'prose') {
    // Below the information floor nothing else matters: small talk is never worth a line.
    if (saysNothing(t)) return 0.05
    let facts = 0
    if (EVENT.test(t)) facts += 1
    if (PLAN.test(t)) facts += 0.7
    if (PERSONAL.test(t)) facts += 0.7
    if (WHEN.test(t)) facts += 0.8
    score += cap(facts, 2)
    const content = ctx.termIds.length
    // Few content words: nothing to remember. Small talk and reactions without a fact of the speaker's own.
    if (content <= 2) score -= 1
    const phatic = PHATIC.test(t)
    // Small talk with nothing else in it is never worth a line, however rare its words are here.
    if (phatic && content <= 5 && facts === 0 && names === 0 && idents === 0 && !/\d/.test(t)) return 0.05
    if (phatic) score -= content <= 4 ? 2.5 : facts > 0 ? 0.5 : 1.5
    else if (REACTION.test(t) && !FIRST_PERSON.test(t) && facts === 0 && names === 0 && !/\d/.test(t)) score -= 1
    // Opinions and encouragement in general terms ("Let's keep going", "It's so important to rest"): no
    // event, name, number or identifier that a later question could be about.
    else if (facts === 0 && names === 0 && idents === 0 && !/\d/.test(t) && (GENERAL.test(t) || !FIRST_PERSON.test(t)))
      score -= 0.7
  }

  if (DECISION.test(t)) score += 2.2
  if (CONSTRAINT.test(t)) score += 1.4
  else if (SOFT_CONSTRAINT.test(t)) score += 0.5
  // A question matters when it carries content; "Any ideas?" does not.
  if (t.trimEnd().endsWith('?') && words >= 6) score += unit.role === 'user' ? 0.5 : 0.2
  if (PLEASANTRY.test(t) || (words < 6 && /\bthank/i.test(t))) score -= words < 12 ? 3 : 1.5
  if (words < 4) score -= 1.5
  if (unit.role === 'user') score += 0.3
  // A previous summary's sentences already won a selection once; a small edge keeps early facts alive.
  if (unit.role === 'summary') score += 0.8

  // Rarity: terms seen in few sentences are what makes this sentence different from the rest.
  let rare = 0
  let idf = 0
  for (const id of ctx.termIds) {
    const df = ctx.df[id] ?? 1
    idf += Math.log(1 + ctx.units / df)
    if (df <= 2) rare++
  }
  // Scaled by how many terms there are, so a lone rare word ("Hi!") does not look informative.
  const n = ctx.termIds.length
  if (n > 0) score += (idf / n / Math.log(1 + ctx.units)) * 1.2 * Math.min(1, n / 4)
  score += cap(rare * 0.35, 1.4)

  if (ctx.focus.size > 0) {
    let hits = 0
    for (const id of ctx.termIds) if (ctx.focus.has(id)) hits++
    score += cap(hits * 1.8, 5.4)
  }
  // A code block or pasted log is shown by its first line, which rarely holds the point of the message.
  if (unit.kind === 'code') score *= 0.45
  return Math.max(0.05, score)
}
