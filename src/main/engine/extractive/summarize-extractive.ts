/**
 * The offline summarizer (DESIGN §5): picks the most informative sentences under a token budget and
 * prints them in chronological order with speaker labels, under the day they were said when known. Pure and deterministic; used when no model
 * is reachable, when the llm summarizer fails, or by choice.
 */
import { selectCandidates, type Candidate } from './select'
import { MIN_SCORE, scoreUnit } from './score'
import { dayFromTimestamp, heading, parseDatePrefix, resolveRelativeDates, type Day } from './dates'
import { clip, messageUnits, STATED_DATES, summaryUnits, type Speaker, type Unit } from './sentences'
import { TermTable, terms } from './terms'
import { noteOf } from './information'
import { namesNote, speakerNames, type SpeakerNames } from './speaker-labels'

export interface ExtractiveInput {
  /**
   * The previous summary when cascading (FR-1.4.2): carried forward as a block, in order, and only trimmed
   * of its lowest-value lines when the new messages need the room.
   */
  previousSummary?: string
  /**
   * `statedDay`: the day a transcript's earlier message stated for this one (see `withStatedDays`).
   * `weight`: how much more its sentences are worth than others' (default 1; the importance strategy's turns).
   */
  messages: ReadonlyArray<{ role: Speaker; text: string; createdAt?: number; statedDay?: Day; weight?: number }>
  /**
   * Titled parts of the new messages (`start`: index of the first message of each, in order): one selection
   * over all of them, so density is even and no line repeats across parts; each title is printed before its
   * part's lines (a part with no line left is not).
   */
  sections?: ReadonlyArray<{ start: number; title: string }>
  /** Size limit of the result, measured with countTokens. */
  targetTokens: number
  countTokens: (text: string) => number
  /** Optional user instruction, e.g. "keep the API design decisions": boosts sentences sharing its terms. */
  focus?: string
  /**
   * Told once, before the first count, the texts the summary will most likely count (a thread that asks
   * another for its counts asks for them together). A hint: the result is the same with or without it.
   */
  prefetch?: (texts: string[]) => void
}

/**
 * How many of the best candidates (by estimated value, the selection's first order) a summary of this
 * many tokens is told ahead: a bit more than it can hold, since some are weighed and left.
 */
const prefetchCount = (targetTokens: number, meanEstimate: number) =>
  Math.ceil((3 * targetTokens) / Math.max(1, meanEstimate)) + 32

/**
 * Scoring is linear, but selection and token counting are not free: only the best candidates compete,
 * many more than a summary can hold (a 4000-token summary holds ~200 sentences).
 */
export const maxCandidates = (targetTokens: number) => Math.min(4000, Math.max(1000, Math.ceil(targetTokens / 2)))
export const EMPTY_SUMMARY = 'No earlier messages to summarize.'

const line = (u: Unit) => `- ${u.label}: ${u.text}`

/**
 * One line per message under date headings: sentences that were adjacent are joined by a space, gaps
 * by " … "; a heading is printed whenever the day changes.
 */
function render(header: string, units: readonly Unit[], titleOf?: (u: Unit) => string | undefined): string {
  const lines = [header]
  let prev: Unit | undefined
  for (const u of units) {
    const title = titleOf?.(u)
    if (title !== undefined && (!prev || title !== titleOf?.(prev))) {
      lines.push(title)
      prev = undefined
    }
    const newDay = u.day !== undefined && u.day !== prev?.day
    if (newDay) lines.push(heading(u.day!))
    if (!newDay && prev && prev.group === u.group && prev.label === u.label) {
      lines[lines.length - 1] += `${u.position === prev.position + 1 ? ' ' : ' … '}${u.text}`
    } else {
      lines.push(line(u))
    }
    prev = u
  }
  return lines.join('\n')
}

function headerFor(
  messages: number,
  previous: { present: boolean; covered?: number },
  stated: boolean,
  names: SpeakerNames
): string {
  const kind = `(extractive${stated ? `, ${STATED_DATES}` : ''}${namesNote(names)}):`
  if (previous.present && previous.covered === undefined) {
    return `Summary of the earlier conversation and ${messages} more message${messages === 1 ? '' : 's'} ${kind}`
  }
  const n = messages + (previous.covered ?? 0)
  return `Summary of ${n} earlier message${n === 1 ? '' : 's'} ${kind}`
}

/** Interjections that open a chat sentence and carry nothing ("Oh, …", "Yeah! …"). */
const OPENER =
  /^(?:(?:oh|wow|yeah|yes|yep|yup|ha(?:ha)+|lol|hey|hmm+|um+|ah+|aw+|well|ok(?:ay)?|so|honestly|totally|definitely|sure|omg)\s*[,!]+\s+)+/i
function tidy(text: string): string {
  const rest = text.replace(OPENER, '')
  return rest.length >= 8 && rest !== text ? rest.charAt(0).toUpperCase() + rest.slice(1) : text
}

type Scored = Candidate & { unit: Unit }

/**
 * A sentence is chosen for what it says as written, then printed and paid for as a note (hedges,
 * interjections and clauses that say nothing left out), so the same room holds more facts.
 */
function asNote(c: Scored): Scored {
  if (c.unit.kind !== 'prose') return c
  const text = clip(noteOf(c.unit.text))
  return text === c.unit.text ? c : { ...c, unit: { ...c.unit, text } }
}

/** Scores units against each other (rarity is relative to the units given). */
function scoreAll(units: readonly Unit[], focusText: string | undefined, table = new TermTable()): Scored[] {
  const termIds = units.map((u) => table.intern(terms(u.text)))
  for (const ids of termIds) table.count(ids)
  const focus = new Set<number>()
  for (const t of terms(focusText ?? '')) {
    const id = table.lookup(t)
    if (id !== undefined) focus.add(id)
  }
  return units.map((unit, i) => {
    const ids = termIds[i] ?? []
    return {
      unit,
      termIds: ids,
      position: unit.position,
      score: scoreUnit(unit, { termIds: ids, df: table.df, units: units.length, focus })
    }
  })
}

/**
 * The days of the new messages. A date a message states up front (a pasted or imported transcript)
 * holds for the messages after it, as a transcript's session date does; without any, each message's own
 * timestamp gives its day.
 */
function datedMessages(
  messages: ExtractiveInput['messages'],
  previous: { stated: boolean; lastDay?: Day } | undefined
): Array<{ role: Speaker; text: string; day?: Day }> {
  const prefixes = messages.map((m) => parseDatePrefix(m.text))
  const stated =
    (previous?.stated ?? false) ||
    prefixes.some((p) => p !== undefined) ||
    messages.some((m) => m.statedDay !== undefined)
  let carried = stated ? previous?.lastDay : undefined
  return messages.map((m, i) => {
    const prefix = prefixes[i]
    if (prefix) carried = prefix.day
    else if (m.statedDay !== undefined) carried = m.statedDay
    const day = stated ? carried : m.createdAt !== undefined ? dayFromTimestamp(m.createdAt) : undefined
    return { role: m.role, text: prefix ? prefix.rest : m.text, ...(day !== undefined ? { day } : {}) }
  })
}

/** The term ids (in the new messages' table) that the given lines already hold. */
function coveredBy(lines: readonly Unit[], table: TermTable): Set<number> {
  const out = new Set<number>()
  for (const u of lines)
    for (const t of terms(u.text)) {
      const id = table.lookup(t)
      if (id !== undefined) out.add(id)
    }
  return out
}

/** At or above this share of shared content words, two lines state the same thing. */
export const RESTATED_JACCARD = 0.6

/**
 * The carried lines a newer line states again (a fact is kept once, in its newest words): compared
 * newest first, against the new picks and the newer carried lines that stay.
 */
function restated(carried: readonly Unit[], picked: readonly Unit[]): number[] {
  const newer = picked.map((u) => new Set(terms(u.text))).filter((t) => t.size >= 3)
  const out: number[] = []
  for (let i = carried.length - 1; i >= 0; i--) {
    const mine = new Set(terms(carried[i]!.text))
    if (mine.size < 3) continue
    const same = newer.some((t) => {
      let shared = 0
      for (const w of mine) if (t.has(w)) shared++
      return shared / (mine.size + t.size - shared) >= RESTATED_JACCARD
    })
    if (same) out.push(i)
    else newer.push(mine)
  }
  return out
}

/**
 * The texts step 3 counts before selecting (framing, each day's heading, the carried lines), then the
 * lines of the candidates the selection meets first: those with the best estimated value.
 */
function prefetchCounts(
  prefetch: (texts: string[]) => void,
  target: number,
  header: string,
  units: readonly Unit[],
  carried: readonly Scored[],
  candidates: readonly Scored[],
  noted: (i: number) => Scored
): void {
  const estimate = (u: Unit) => Math.ceil((u.text.length + u.label.length + 4) / 4)
  const value = (i: number) => candidates[i]!.score / Math.sqrt(Math.max(1, estimate(candidates[i]!.unit)))
  const best = candidates
    .map((_, i) => i)
    .sort((a, b) => value(b) - value(a) || candidates[a]!.position - candidates[b]!.position)
  const mean = best.length === 0 ? 1 : best.reduce((a, i) => a + estimate(candidates[i]!.unit), 0) / best.length
  const day = units.find((u) => u.day !== undefined)?.day
  prefetch([
    '',
    header,
    ...(day !== undefined ? [`${heading(day)}\n`] : []),
    ...carried.map((c) => `${line(c.unit)}\n`),
    ...best.slice(0, prefetchCount(target, mean)).map((i) => `${line(noted(i).unit)}\n`)
  ])
}

export function summarizeExtractive(input: ExtractiveInput): string {
  return summarizeWithSources(input).text
}

/** The summary, and which of the new messages (by index) it quotes. */
export function summarizeWithSources(input: ExtractiveInput): { text: string; quoted: Set<number> } {
  const none = (text: string) => ({ text, quoted: new Set<number>() })
  const { countTokens } = input
  const target = Number.isFinite(input.targetTokens) ? Math.floor(input.targetTokens) : 0
  const fits = (text: string) => countTokens(text) <= target

  // 1. Units: the previous summary's lines (older) as a block carried forward, then the new messages' sentences.
  const ctx = { nextPosition: 0 }
  const previous = input.previousSummary?.trim() ? summaryUnits(input.previousSummary, ctx, 0) : undefined
  const old = previous?.units ?? []
  const dated = datedMessages(input.messages, previous)
  const stated = (previous?.stated ?? false) || dated.some((m, i) => m.text !== input.messages[i]!.text)
  // People by name where the chat names them (a name once given stays, so lines agree), else by their role.
  const names = { ...speakerNames(input.messages), ...previous?.names }
  const fresh: Unit[] = []
  let group = previous?.groups ?? 0
  for (const m of dated) {
    const label = m.role === 'user' || m.role === 'assistant' ? names[m.role] : undefined
    for (const u of messageUnits(m.text, m.role, group++, ctx, m.day)) {
      const text =
        u.kind === 'prose' ? tidy(u.day !== undefined ? resolveRelativeDates(u.text, u.day) : u.text) : u.text
      fresh.push({ ...u, ...(text === u.text ? {} : { text: clip(text) }), ...(label ? { label } : {}) })
    }
  }
  if (old.length + fresh.length === 0) return none(fits(EMPTY_SUMMARY) ? EMPTY_SUMMARY : '')
  const header = headerFor(
    input.messages.length,
    { present: previous !== undefined, ...(previous?.covered !== undefined ? { covered: previous.covered } : {}) },
    stated,
    names
  )

  // 2. Scores. New sentences compete with each other only; the carried lines are scored among themselves,
  //    just to know which to let go first when room is needed.
  const estimate = (u: Unit) => Math.ceil((u.text.length + u.label.length + 4) / 4)
  const table = new TermTable()
  const firstGroup = previous?.groups ?? 0
  const weightOf = (u: Unit) => input.messages[u.group - firstGroup]?.weight ?? 1
  let candidates = scoreAll(fresh, input.focus, table)
    .filter((c) => c.score >= MIN_SCORE)
    .map((c) => (weightOf(c.unit) === 1 ? c : { ...c, score: c.score * weightOf(c.unit) }))
  if (candidates.length > maxCandidates(target)) {
    const value = (c: Scored) => c.score / Math.sqrt(estimate(c.unit))
    candidates = [...candidates]
      .sort((a, b) => value(b) - value(a) || a.position - b.position)
      .slice(0, maxCandidates(target))
  }
  const carried = scoreAll(old, input.focus)
  // Notes are written only for the candidates the selection weighs (it asks for a cost once each).
  const notes = new Map<number, Scored>()
  const noted = (i: number): Scored => {
    let c = notes.get(i)
    if (!c) notes.set(i, (c = asNote(candidates[i]!)))
    return c
  }
  if (input.prefetch) prefetchCounts(input.prefetch, target, header, [...old, ...fresh], carried, candidates, noted)

  // 3. Budgets. A line's cost includes its newline; summing line costs over-estimates the whole (framing is
  //    counted once), and step 4 checks the real total. Date headings take a few tokens each.
  const base = countTokens('')
  const lineCost = (u: Unit) => countTokens(`${line(u)}\n`) - base
  const days = new Set([...old, ...fresh].map((u) => u.day).filter((d) => d !== undefined))
  const headingCost = days.size === 0 ? 0 : countTokens(`${heading([...days][0]!)}\n`) - base
  const sections = [...(input.sections ?? [])].sort((a, b) => a.start - b.start)
  const titleOf =
    sections.length === 0
      ? undefined
      : (u: Unit) =>
          u.role === 'summary' ? undefined : sections.findLast((x) => x.start <= u.group - firstGroup)?.title
  // Each part's title, and its first day's heading again under it.
  const titlesCost = sections.reduce((a, x) => a + countTokens(`${x.title}\n`) - base + headingCost, 0)
  const available =
    target -
    countTokens(header) -
    titlesCost -
    Math.min(days.size * headingCost, Math.floor((target - countTokens(header)) / 4))
  const carriedCost = carried.map((c) => lineCost(c.unit))
  const carriedTotal = carriedCost.reduce((a, b) => a + b, 0)
  // The new messages get at least their share of everything the summary stands for, so every period of
  // the conversation keeps a comparable density; what one part does not need, the other may use.
  const covered = previous ? (previous.covered ?? Math.max(1, input.messages.length)) : 0
  const share = input.messages.length / Math.max(1, input.messages.length + covered)
  const freshBudget = Math.max(Math.floor(available * share), available - carriedTotal)
  const picked =
    freshBudget > 0 && candidates.length > 0
      ? selectCandidates(candidates, {
          budget: freshBudget,
          // What the carried lines already say is worth nothing again; a term rare in the new messages is
          // worth more than one every other sentence repeats.
          covered: coveredBy(old, table),
          weight: (id) => Math.log(1 + fresh.length / Math.max(1, table.df[id] ?? 1)),
          cost: (i) => lineCost(noted(i).unit),
          estimate: (i) => estimate(candidates[i]!.unit)
        })
      : []
  let used = picked.reduce((a, i) => a + lineCost(noted(i).unit), 0)
  // The carried block keeps its lines in order; only the lowest-value ones go when the room is needed.
  const keptCarried = new Set(carried.map((_, i) => i))
  const byValue = carried
    .map((c, i) => i)
    .sort(
      (a, b) =>
        carried[a]!.score / Math.sqrt(carriedCost[a]!) - carried[b]!.score / Math.sqrt(carriedCost[b]!) ||
        carried[b]!.position - carried[a]!.position
    )
  let carriedUsed = carriedTotal
  for (const i of restated(
    carried.map((c) => c.unit),
    picked.map((i) => noted(i).unit)
  )) {
    keptCarried.delete(i)
    carriedUsed -= carriedCost[i]!
  }
  for (const i of byValue) {
    if (carriedUsed + used <= available) break
    keptCarried.delete(i)
    carriedUsed -= carriedCost[i]!
  }
  used += carriedUsed

  // 4. Fit: drop the weakest sentences until the rendered text fits the tokenizer's real count.
  let chosen: Scored[] = [...carried.filter((_, i) => keptCarried.has(i)), ...picked.map(noted)]
  const chronological = () => [...chosen].sort((a, b) => a.position - b.position).map((c) => c.unit)
  let text = render(header, chronological(), titleOf)
  while (chosen.length > 0 && !fits(text)) {
    const over = countTokens(text) - target
    const drop = Math.max(1, Math.floor((chosen.length * over) / Math.max(1, countTokens(text))))
    chosen = [...chosen]
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .slice(0, Math.max(0, chosen.length - drop))
    text = render(header, chronological(), titleOf)
  }
  if (chosen.length > 0)
    return {
      text,
      quoted: new Set(chosen.filter((c) => c.unit.role !== 'summary').map((c) => c.unit.group - firstGroup))
    }

  // 5. Too small for any whole sentence: clip the best one to what is left, else the header, else nothing.
  const best = [...candidates, ...carried].sort((a, b) => b.score - a.score || a.position - b.position)[0]
  if (best && fits(header)) {
    let lo = 0
    let hi = best.unit.text.length
    let found: string | undefined
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const attempt = render(header, [{ ...best.unit, text: clip(best.unit.text, Math.max(2, mid)) }])
      if (mid >= 8 && fits(attempt)) {
        found = attempt
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
      ? { text: found, quoted: new Set(best.unit.role === 'summary' ? [] : [best.unit.group - firstGroup]) }
      : none(header)
  }
  return none('')
}
