/**
 * Cuts messages (and a previous summary) into the units the extractive summarizer chooses from:
 * prose sentences, one line per code block, and the labelled lines of an earlier summary.
 */

import { HEADING_PATTERN, parseDate, type Day } from './dates'
import { namesFromHeader, openersFromHeader, type SpeakerNames } from './speaker-labels'

export type Speaker = 'system' | 'user' | 'assistant' | 'tool'

export interface Unit {
  /** Speaker label as printed: `User`, `Assistant`, `Tool`, `System`, or a previous summary's own label. */
  label: string
  text: string
  /** Units of one message (or one summary line) share a group; adjacent ones are printed on one line. */
  group: number
  /** Chronological position over the whole input: previous summary first, then the messages. */
  position: number
  role: Speaker | 'summary'
  kind: 'prose' | 'code'
  /** The day it was written or said, when known: summaries group their lines under date headings. */
  day?: Day
}

export const LABELS: Record<Speaker, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' }

/** Longer sentences are clipped: one run-on paragraph must not eat a small budget. */
export const MAX_SENTENCE_CHARS = 300
const MAX_CODE_CHARS = 140

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'no',
  'approx',
  'fig',
  'cf',
  'jr',
  'sr',
  'inc',
  'ltd',
  'vol',
  'al'
])

export function clip(text: string, max = MAX_SENTENCE_CHARS): string {
  if (text.length <= max) return text
  const cut = text.lastIndexOf(' ', max - 1)
  return `${text.slice(0, cut > max * 0.6 ? cut : max - 1).trimEnd()}…`
}

/** Splits one line of prose into sentences, leaving abbreviations, decimals, versions and paths whole. */
export function splitSentences(line: string): string[] {
  const out: string[] = []
  const boundary = /[.!?…]+["')\]]*\s+/g
  let start = 0
  for (let m = boundary.exec(line); m; m = boundary.exec(line)) {
    const end = m.index + m[0].length
    const next = line[end]
    if (next === undefined || !/[A-Z0-9"'(`[*_]/.test(next)) continue
    const word = /([A-Za-z.]+)[.]+$/.exec(line.slice(Math.max(start, m.index - 12), m.index + 1))
    const before = word?.[1]?.toLowerCase()
    if (m[0].startsWith('.') && before && (ABBREVIATIONS.has(before.replace(/\.$/, '')) || /^[a-z]$/i.test(before)))
      continue
    out.push(line.slice(start, end).trim())
    start = end
  }
  out.push(line.slice(start).trim())
  return out.filter((s) => s.length > 0)
}

/** Markdown list markers, headings and quote marks carry no content. */
function cleanLine(line: string): string {
  return line
    .replace(/^\s*(?:[-*+•]|\d+[.)]|>)\s+/, '')
    .replace(/^#{1,6}\s+/, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .trim()
}

function isNoise(line: string): boolean {
  return line === '' || /^[|:\-\s]+$/.test(line) || /^[-=_*]{3,}$/.test(line)
}

/** A code block becomes one unit: its language and its first meaningful line(s). */
function codeUnitText(lang: string, body: string): string | undefined {
  const lines = body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !/^[{}()[\];,]+$/.test(l))
  const first = lines[0]
  if (first === undefined) return undefined
  let head = first
  const second = lines[1]
  if (second !== undefined && head.length < 40) head = `${head} ${second}`
  const more = lines.length > (head === first ? 1 : 2)
  head = clip(head, MAX_CODE_CHARS).replace(/`/g, "'")
  return `Code${lang ? ` (${lang})` : ''}: \`${head}\`${more ? ' …' : ''}`
}

export interface SplitContext {
  nextPosition: number
}

/** The units of one message, in order. */
export function messageUnits(text: string, role: Speaker, group: number, ctx: SplitContext, day?: Day): Unit[] {
  const units: Unit[] = []
  const push = (t: string, kind: Unit['kind']) => {
    units.push({
      label: LABELS[role],
      text: t,
      group,
      position: ctx.nextPosition++,
      role,
      kind,
      ...(day !== undefined ? { day } : {})
    })
  }
  const fence = /```([^\n`]*)\n?([\s\S]*?)(?:```|$)/g
  let last = 0
  const prose = (chunk: string) => {
    for (const raw of chunk.split('\n')) {
      const line = cleanLine(raw)
      if (isNoise(line)) continue
      for (const s of splitSentences(line)) push(clip(s), 'prose')
    }
  }
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    prose(text.slice(last, m.index))
    const code = codeUnitText((m[1] ?? '').trim(), m[2] ?? '')
    if (code) push(code, 'code')
    last = m.index + m[0].length
    if (m[0].length === 0) fence.lastIndex++
  }
  prose(text.slice(last))
  return units
}

export const HEADER_PATTERN = /^Summary of (\d+) earlier messages?\b.*$/
/** Said in the header when the days come from dates the messages state rather than from their timestamps. */
export const STATED_DATES = 'dates as stated in the messages'

export interface SummaryUnits {
  units: Unit[]
  covered?: number
  groups: number
  /** The summary's days came from dates its messages stated: later messages without one continue them. */
  stated: boolean
  /** The day of its last date heading. */
  lastDay?: Day
  /** The speakers' names its header recorded. */
  names: SpeakerNames
}

/**
 * The units of a previous summary (ours or an LLM's). Labelled lines (`- User: …`) keep their label;
 * other lines are labelled `Summary`; date headings (`8 May 2023:`) date the lines below them.
 * Returns how many messages the summary says it covers, if it says.
 */
export function summaryUnits(summary: string, ctx: SplitContext, firstGroup: number): SummaryUnits {
  const units: Unit[] = []
  let covered: number | undefined
  let group = firstGroup
  let stated = false
  let day: Day | undefined
  let names: SpeakerNames = {}
  // Labels that were stock openers taken for names ("- Understood: …"), and the side they stand for.
  const misnamed = new Map<string, 'user' | 'assistant'>()
  for (const raw of summary.split('\n')) {
    const header = HEADER_PATTERN.exec(raw.trim())
    if (header) {
      covered = (covered ?? 0) + Number(header[1])
      names = { ...names, ...namesFromHeader(raw) }
      for (const [word, role] of openersFromHeader(raw)) misnamed.set(word, role)
      if (raw.includes(STATED_DATES)) stated = true
      continue
    }
    const dated = HEADING_PATTERN.exec(raw.trim())
    if (dated) {
      day = parseDate(dated[1]!) ?? day
      continue
    }
    const labelled = /^\s*[-*•]\s+([A-Z][A-Za-z]{1,20}):\s+(.*)$/.exec(raw)
    const side = labelled ? misnamed.get(labelled[1]!) : undefined
    const label = side ? LABELS[side] : (labelled?.[1] ?? 'Summary')
    const body = labelled?.[2] ?? cleanLine(raw)
    if (isNoise(body.trim()) || /^#{1,6}\s/.test(raw.trim())) continue
    // Our own output joins non-adjacent sentences of a message with " … ".
    for (const piece of body.split(/\s+…\s+/)) {
      const isCode = /^Code(?: \([^)]*\))?: `/.test(piece)
      const sentences = isCode ? [piece] : splitSentences(piece.trim())
      for (const s of sentences) {
        units.push({
          label,
          text: isCode ? s : clip(s),
          group,
          position: ctx.nextPosition++,
          role: 'summary',
          kind: isCode ? 'code' : 'prose',
          ...(day !== undefined ? { day } : {})
        })
      }
    }
    group++
  }
  return {
    units,
    groups: group - firstGroup,
    stated,
    names,
    ...(covered !== undefined ? { covered } : {}),
    ...(day !== undefined ? { lastDay: day } : {})
  }
}
