/**
 * When things happened: the day a message was written (its timestamp, or a date the text itself states
 * up front, as pasted or imported transcripts do), and relative expressions ("yesterday", "last Friday")
 * resolved against that day so a sentence read later, out of its conversation, still says when.
 * Pure calendar arithmetic: no clock is read.
 */

/** A calendar day as yyyymmdd, e.g. 20230508: ordered and comparable as a number. */
export type Day = number

/** English month names, January first (the dates Distill writes and reads). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December'
]
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const MONTH_INDEX = new Map<string, number>()
MONTH_NAMES.forEach((m, i) => {
  MONTH_INDEX.set(m.toLowerCase(), i)
  MONTH_INDEX.set(m.slice(0, 3).toLowerCase(), i)
})
MONTH_INDEX.set('sept', 8)

const MONTH =
  '(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?'
const DAY_OF_MONTH = '(\\d{1,2})(?:st|nd|rd|th)?'
const YEAR = '(\\d{4})'
const DAY_MONTH_YEAR = new RegExp(`\\b${DAY_OF_MONTH}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'i')
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+${DAY_OF_MONTH},?\\s+${YEAR}\\b`, 'i')
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/

export const dayOf = (year: number, month: number, day: number): Day => year * 10000 + (month + 1) * 100 + day
const parts = (d: Day) => ({ year: Math.floor(d / 10000), month: (Math.floor(d / 100) % 100) - 1, day: d % 100 })

function valid(year: number, month: number, day: number): Day | undefined {
  if (month < 0 || month > 11 || day < 1 || day > 31 || year < 1000) return undefined
  const utc = new Date(Date.UTC(year, month, day))
  return utc.getUTCMonth() === month ? dayOf(year, month, day) : undefined
}

/** The first complete date (with a year) in a short text. */
export function parseDate(text: string): Day | undefined {
  let m = DAY_MONTH_YEAR.exec(text)
  if (m) return valid(Number(m[3]), MONTH_INDEX.get(m[2]!.toLowerCase().replace('.', '')) ?? -1, Number(m[1]))
  m = MONTH_DAY_YEAR.exec(text)
  if (m) return valid(Number(m[3]), MONTH_INDEX.get(m[1]!.toLowerCase().replace('.', '')) ?? -1, Number(m[2]))
  m = ISO.exec(text)
  if (m) return valid(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return undefined
}

/**
 * A date the message states before its text: `(1:56 pm on 8 May, 2023) Hi!`, `[2023-05-08 13:56] Hi!`,
 * `May 8, 2023: Hi!`. Returns the day and the text after the prefix.
 */
export function parseDatePrefix(text: string): { day: Day; rest: string } | undefined {
  const bracketed = /^\s*[([]([^()[\]\n]{6,60})[)\]]\s*/.exec(text)
  if (bracketed) {
    const day = parseDate(bracketed[1]!)
    if (day !== undefined) return { day, rest: text.slice(bracketed[0].length) }
  }
  const bare = /^\s*([^:\n]{6,50}?)\s*(?::|\s[-–—|])\s+/.exec(text)
  if (bare && /^\W*(?:\w+,?\s+)?(?:\d|[A-Z][a-z]{2})/.test(bare[1]!)) {
    const day = parseDate(bare[1]!)
    // The whole prefix must be the date (and perhaps a weekday or time), not a sentence mentioning one.
    if (
      day !== undefined &&
      bare[1]!.split(/\s+/).length <= 7 &&
      !/\b(?:I|we|you|he|she|they|is|was|on my|my)\b/.test(bare[1]!)
    ) {
      return { day, rest: text.slice(bare[0].length) }
    }
  }
  return undefined
}

/**
 * In a transcript whose messages state their dates (a session's first message carries the session's
 * date), the day each later message belongs to: the last date stated at or before it. A summary of a
 * stretch that starts mid-session then still knows its day instead of taking the import's timestamps.
 * Messages before the first stated date, and chats that state none, are returned as they are.
 */
export function withStatedDays<T extends { text: string; statedDay?: Day }>(messages: readonly T[]): T[] {
  let day: Day | undefined
  return messages.map((m) => {
    const prefix = parseDatePrefix(m.text)
    if (prefix) day = prefix.day
    return day === undefined || m.statedDay === day ? m : { ...m, statedDay: day }
  })
}

/** The local calendar day of a timestamp. */
export function dayFromTimestamp(ms: number): Day | undefined {
  if (!Number.isFinite(ms)) return undefined
  const d = new Date(ms)
  return dayOf(d.getFullYear(), d.getMonth(), d.getDate())
}

/** "8 May 2023". */
export function formatDay(d: Day): string {
  const p = parts(d)
  return `${p.day} ${MONTH_NAMES[p.month]} ${p.year}`
}

/** A date heading line of a summary: `8 May 2023:`. */
export const HEADING_PATTERN = /^(\d{1,2} [A-Z][a-z]+ \d{4}):$/
export const heading = (d: Day) => `${formatDay(d)}:`

function shift(d: Day, days: number): Day {
  const p = parts(d)
  const t = new Date(Date.UTC(p.year, p.month, p.day + days))
  return dayOf(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate())
}
const weekday = (d: Day) => {
  const p = parts(d)
  return new Date(Date.UTC(p.year, p.month, p.day)).getUTCDay()
}
const monthYear = (year: number, month: number) => {
  const t = new Date(Date.UTC(year, month, 1))
  return `${MONTH_NAMES[t.getUTCMonth()]} ${t.getUTCFullYear()}`
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  'a couple of': 2,
  few: 3,
  'a few': 3
}
const RELATIVE = new RegExp(
  [
    '\\b(yesterday|tomorrow|last night)\\b',
    '\\b(last|this past|next|this coming) (sunday|monday|tuesday|wednesday|thursday|friday|saturday)\\b',
    '\\b(last|this past|next) weekend\\b',
    '\\b(last|next) (month|year)\\b',
    '\\b(\\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few) (day|week|month|year)s? ago\\b'
  ].join('|'),
  'gi'
)

/** The date a relative expression points at, as printed after it, or undefined when it says nothing new. */
function resolve(match: RegExpExecArray, d: Day): string | undefined {
  const [, simple, dir, wd, wkDir, unitDir, unit, count, agoUnit] = match
  const p = parts(d)
  if (simple) {
    const s = simple.toLowerCase()
    return formatDay(shift(d, s === 'tomorrow' ? 1 : -1))
  }
  if (dir && wd) {
    const target = WEEKDAYS.indexOf(wd.toLowerCase())
    const back = /^(?:last|this past)$/i.test(dir)
    const now = weekday(d)
    const delta = back ? -((now - target + 7) % 7 || 7) : (target - now + 7) % 7 || 7
    return formatDay(shift(d, delta))
  }
  if (wkDir) {
    const now = weekday(d)
    const saturday = /^next$/i.test(wkDir) ? shift(d, (6 - now + 7) % 7 || 7) : shift(d, -((now - 6 + 7) % 7 || 7))
    return `weekend of ${formatDay(saturday)}`
  }
  if (unitDir && unit) {
    const step = /^last$/i.test(unitDir) ? -1 : 1
    return unit.toLowerCase() === 'year' ? String(p.year + step) : monthYear(p.year, p.month + step)
  }
  if (count && agoUnit) {
    const n = /^\d+$/.test(count) ? Number(count) : (NUMBER_WORDS[count.toLowerCase()] ?? 1)
    const u = agoUnit.toLowerCase()
    if (u === 'day') return formatDay(shift(d, -n))
    if (u === 'week') return `around ${formatDay(shift(d, -7 * n))}`
    if (u === 'month') return monthYear(p.year, p.month - n)
    return String(p.year - n)
  }
  return undefined
}

/** "I went yesterday" written on 8 May 2023 → "I went yesterday (7 May 2023)". */
export function resolveRelativeDates(text: string, d: Day): string {
  RELATIVE.lastIndex = 0
  return text.replace(RELATIVE, (...args) => {
    const match = args.slice(0, -2) as unknown as RegExpExecArray
    const at = args.at(-2) as number
    // Already resolved (a previous pass, or the writer did it); or a figure of speech ("feels like yesterday").
    if (/^\s*\(/.test(text.slice(at + String(args[0]).length))) return String(args[0])
    if (/\b(?:like|as if|as though)\s+(?:it was\s+|it were\s+)?(?:just\s+|only\s+)?$/i.test(text.slice(0, at)))
      return String(args[0])
    const when = resolve(match, d)
    return when ? `${String(args[0])} (${when})` : String(args[0])
  })
}
