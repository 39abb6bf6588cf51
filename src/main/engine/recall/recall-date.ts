import { MONTH_NAMES } from '../extractive/dates'
/**
 * Dates of recalled passages. A message has its createdAt, but an imported or replayed chat may
 * carry the real date only in the text, at the start of a session's first message, e.g.
 * "(1:56 pm on 8 May, 2023) …"; such a stated date applies to the messages after it.
 */

const MONTHS = MONTH_NAMES
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?'
const WEEKDAY = '(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*,?\\s+)?'
/** An opening bracket, a clock time ("1:56 pm on", "10:00,") and a weekday may come before the date. */
const LEAD = `^\\s*[(\\[]?\\s*(?:(?:at\\s+)?\\d{1,2}[:.]\\d{2}(?:\\s*[ap]\\.?m\\.?)?\\s*(?:on\\s+|,\\s*|-\\s*)?)?${WEEKDAY}`
const DAY_MONTH_YEAR = new RegExp(`${LEAD}(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'i')
const MONTH_DAY_YEAR = new RegExp(`${LEAD}${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i')
const ISO = new RegExp(`${LEAD}(\\d{4})-(\\d{2})-(\\d{2})\\b`)

export interface StatedDate {
  year: number
  /** 1–12 */
  month: number
  day: number
}

function monthNumber(name: string): number {
  return MONTHS.findIndex((m) => m.toLowerCase().startsWith(name.toLowerCase().slice(0, 3))) + 1
}

function valid(d: StatedDate): StatedDate | undefined {
  return d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 && d.year >= 1000 ? d : undefined
}

/** The date a message states at its very start, if any ("(1:56 pm on 8 May, 2023) …", "2023-05-08: …"). */
export function statedDate(text: string): StatedDate | undefined {
  const head = text.slice(0, 120)
  let m = DAY_MONTH_YEAR.exec(head)
  if (m) return valid({ day: Number(m[1]), month: monthNumber(m[2]!), year: Number(m[3]) })
  m = MONTH_DAY_YEAR.exec(head)
  if (m) return valid({ month: monthNumber(m[1]!), day: Number(m[2]), year: Number(m[3]) })
  m = ISO.exec(head)
  if (m) return valid({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })
  return undefined
}

export function dateLabel(d: StatedDate): string {
  return `${d.day} ${MONTHS[d.month - 1]} ${d.year}`
}

/** A timestamp's calendar day in the local time zone (no clock is read: the time is given). */
export function dayOf(ms: number): StatedDate {
  const d = new Date(ms)
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() }
}

/** A stated date applies to later messages written within this time of it (the same sitting or import). */
export const STATED_DATE_REACH_MS = 12 * 60 * 60 * 1000

/**
 * The day of a message: the date stated by the nearest earlier message (or itself) when that was
 * written in the same sitting, else the message's own createdAt.
 */
export function passageDay(
  message: { createdAt: number },
  stated?: { date: StatedDate; createdAt: number }
): StatedDate {
  if (stated && Math.abs(message.createdAt - stated.createdAt) <= STATED_DATE_REACH_MS) return stated.date
  return dayOf(message.createdAt)
}

export function passageDate(message: { createdAt: number }, stated?: { date: StatedDate; createdAt: number }): string {
  return dateLabel(passageDay(message, stated))
}

/** A day or a month a message asks about ("on 3 May 2023", "in March 2023", "2023-05-03"). */
export interface MentionedDate {
  year: number
  month: number
  day?: number
}

const ANY_DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'gi')
const ANY_MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi')
const ANY_MONTH_YEAR = new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi')
const ANY_ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/g

/** Every date a text mentions, anywhere in it, as days (or months when no day is given). */
export function datesMentioned(text: string): MentionedDate[] {
  const out: MentionedDate[] = []
  const add = (d: MentionedDate) => {
    if (d.month < 1 || d.month > 12 || d.year < 1000 || (d.day !== undefined && (d.day < 1 || d.day > 31))) return
    if (!out.some((o) => o.year === d.year && o.month === d.month && o.day === d.day)) out.push(d)
  }
  for (const m of text.matchAll(ANY_DAY_MONTH_YEAR))
    add({ day: Number(m[1]), month: monthNumber(m[2]!), year: Number(m[3]) })
  for (const m of text.matchAll(ANY_MONTH_DAY_YEAR))
    add({ month: monthNumber(m[1]!), day: Number(m[2]), year: Number(m[3]) })
  for (const m of text.matchAll(ANY_ISO)) add({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) })
  // A month and year alone, unless it is part of a full date found above.
  for (const m of text.matchAll(ANY_MONTH_YEAR)) {
    const d = { month: monthNumber(m[1]!), year: Number(m[2]) }
    if (!out.some((o) => o.year === d.year && o.month === d.month)) add(d)
  }
  return out
}

/** Whether a passage's day is one the message asks about (a mentioned month matches any of its days). */
export function matchesMentioned(day: StatedDate, mentioned: readonly MentionedDate[]): boolean {
  return mentioned.some(
    (m) => m.year === day.year && m.month === day.month && (m.day === undefined || m.day === day.day)
  )
}
