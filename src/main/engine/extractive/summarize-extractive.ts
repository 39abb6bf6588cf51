/**
 * The offline summarizer (DESIGN §5): picks the most informative sentences under a token budget and
 * prints them in chronological order with speaker labels. Pure and deterministic; used when no model
 * is reachable, when the llm summarizer fails, or by choice.
 */
import { selectCandidates, type Candidate } from './select'
import { MIN_SCORE, scoreUnit } from './score'
import { clip, messageUnits, summaryUnits, type Speaker, type Unit } from './sentences'
import { TermTable, terms } from './terms'

export interface ExtractiveInput {
  /** The previous summary when cascading (FR-1.4.2): its sentences compete with the new messages'. */
  previousSummary?: string
  messages: ReadonlyArray<{ role: Speaker; text: string; createdAt?: number }>
  /** Size limit of the result, measured with countTokens. */
  targetTokens: number
  countTokens: (text: string) => number
  /** Optional user instruction, e.g. "keep the API design decisions": boosts sentences sharing its terms. */
  focus?: string
}

/**
 * Scoring is linear, but selection and token counting are not free: only the best candidates compete,
 * many more than a summary can hold (a 4000-token summary holds ~200 sentences).
 */
export const maxCandidates = (targetTokens: number) => Math.min(4000, Math.max(1000, Math.ceil(targetTokens / 2)))
export const EMPTY_SUMMARY = 'No earlier messages to summarize.'

const line = (u: Unit) => `- ${u.label}: ${u.text}`

/** One line per message: sentences that were adjacent are joined by a space, gaps by " … ". */
function render(header: string, units: readonly Unit[]): string {
  const lines = [header]
  let prev: Unit | undefined
  for (const u of units) {
    if (prev && prev.group === u.group && prev.label === u.label) {
      lines[lines.length - 1] += `${u.position === prev.position + 1 ? ' ' : ' … '}${u.text}`
    } else {
      lines.push(line(u))
    }
    prev = u
  }
  return lines.join('\n')
}

function headerFor(messages: number, previous: { present: boolean; covered?: number }): string {
  if (previous.present && previous.covered === undefined) {
    return `Summary of the earlier conversation and ${messages} more message${messages === 1 ? '' : 's'} (extractive):`
  }
  const n = messages + (previous.covered ?? 0)
  return `Summary of ${n} earlier message${n === 1 ? '' : 's'} (extractive):`
}

export function summarizeExtractive(input: ExtractiveInput): string {
  const { countTokens } = input
  const target = Number.isFinite(input.targetTokens) ? Math.floor(input.targetTokens) : 0
  const fits = (text: string) => countTokens(text) <= target

  // 1. Units: the previous summary's lines first (they are older), then every message's sentences.
  const ctx = { nextPosition: 0 }
  const previous = input.previousSummary?.trim() ? summaryUnits(input.previousSummary, ctx, 0) : undefined
  const units: Unit[] = previous ? [...previous.units] : []
  let group = previous?.groups ?? 0
  for (const m of input.messages) units.push(...messageUnits(m.text, m.role, group++, ctx))
  if (units.length === 0) return fits(EMPTY_SUMMARY) ? EMPTY_SUMMARY : ''
  const header = headerFor(input.messages.length, { present: previous !== undefined, ...(previous?.covered !== undefined ? { covered: previous.covered } : {}) })

  // 2. Scores.
  const table = new TermTable()
  const termIds = units.map((u) => table.intern(terms(u.text)))
  for (const ids of termIds) table.count(ids)
  const focus = new Set<number>()
  for (const t of terms(input.focus ?? '')) {
    const id = table.lookup(t)
    if (id !== undefined) focus.add(id)
  }
  const estimate = (u: Unit) => Math.ceil((u.text.length + u.label.length + 4) / 4)
  let candidates: Array<Candidate & { unit: Unit }> = units.map((unit, i) => {
    const ids = termIds[i] ?? []
    return { unit, termIds: ids, position: unit.position, score: scoreUnit(unit, { termIds: ids, df: table.df, units: units.length, focus }) }
  })
  candidates = candidates.filter((c) => c.score >= MIN_SCORE)
  if (candidates.length > maxCandidates(target)) {
    const value = (c: (typeof candidates)[number]) => c.score / Math.sqrt(estimate(c.unit))
    candidates = [...candidates].sort((a, b) => value(b) - value(a) || a.position - b.position).slice(0, maxCandidates(target))
  }

  // 3. Selection under the budget left after the header. A line's cost includes its newline; summing
  //    line costs over-estimates the whole (framing is counted once), and step 4 checks the real total.
  const base = countTokens('')
  const budget = target - countTokens(header)
  const picked =
    budget > 0
      ? selectCandidates(candidates, {
          budget,
          cost: (i) => countTokens(`${line(candidates[i]!.unit)}\n`) - base,
          estimate: (i) => estimate(candidates[i]!.unit)
        })
      : []

  // 4. Fit: drop the weakest sentences until the rendered text fits the tokenizer's real count.
  let chosen = picked.map((i) => candidates[i]!)
  const chronological = () => [...chosen].sort((a, b) => a.position - b.position).map((c) => c.unit)
  let text = render(header, chronological())
  while (chosen.length > 0 && !fits(text)) {
    const over = countTokens(text) - target
    const drop = Math.max(1, Math.floor((chosen.length * over) / Math.max(1, countTokens(text))))
    chosen = [...chosen].sort((a, b) => b.score - a.score || a.position - b.position).slice(0, Math.max(0, chosen.length - drop))
    text = render(header, chronological())
  }
  if (chosen.length > 0) return text

  // 5. Too small for any whole sentence: clip the best one to what is left, else the header, else nothing.
  const best = [...candidates].sort((a, b) => b.score - a.score || a.position - b.position)[0]
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
    return found ?? header
  }
  return ''
}
