/**
 * Sigma ADR-006 turn analysis, offline: importance (0–10) = 5 × novelty + the signal score (0–5), the
 * latter standing in for the ADR's `max(alignment) × 0.5` term:
 *   2 × decision + numbers + code + entities.
 * Classes follow the ADR's compressor and its distribution table: paradigm shift ≥ 7 (kept verbatim),
 * important 3–7 (~30%), routine < 3 (~10%). Deterministic; linear in the number of turns.
 */
import { TermTable, terms } from '../../extractive/terms'
import type { EngineMessage } from '../../types'
import { noveltyScores, type NoveltyOptions } from './novelty'
import { entityNames, phaticShare, turnSignals, type TurnSignals } from './signals'

export type TurnClass = 'paradigm-shift' | 'important' | 'routine'

export interface TurnScore {
  id: string
  /** Importance from 0 to 10. */
  score: number
  /** phatic: the share of the turn's words in greetings, thanks, praise or agreement (0–1). */
  signals: TurnSignals & { novelty: number; phatic: number }
  class: TurnClass
}

export interface ScoreOptions extends NoveltyOptions {
  /** At or above: paradigm shift. */
  paradigmThreshold?: number
  /** Below: routine. */
  routineThreshold?: number
}

export const PARADIGM_THRESHOLD = 7
export const ROUTINE_THRESHOLD = 3
/** Huge turns (pasted logs, tool output) are read by their head and tail only. */
export const SCORED_CHARS = 20_000

function sample(text: string): string {
  if (text.length <= SCORED_CHARS) return text
  const head = Math.floor(SCORED_CHARS * 0.8)
  return `${text.slice(0, head)}\n${text.slice(text.length - (SCORED_CHARS - head))}`
}

export function classify(score: number, options: ScoreOptions = {}): TurnClass {
  if (score >= (options.paradigmThreshold ?? PARADIGM_THRESHOLD)) return 'paradigm-shift'
  return score >= (options.routineThreshold ?? ROUTINE_THRESHOLD) ? 'important' : 'routine'
}

const round = (n: number) => Math.round(n * 1000) / 1000

/** A name in at least this share of the turns (and in COMMON_NAME_MIN_TURNS) is a speaker's or a constant's, not news. */
export const COMMON_NAME_SHARE = 0.1
export const COMMON_NAME_MIN_TURNS = 5

/** Name words the conversation keeps repeating (lower-cased). */
function commonNames(names: ReadonlyArray<string[][]>): Set<string> {
  const df = new Map<string, number>()
  for (const found of names)
    for (const name of new Set(found.flat().map((n) => n.toLowerCase()))) df.set(name, (df.get(name) ?? 0) + 1)
  const min = Math.max(COMMON_NAME_MIN_TURNS, names.length * COMMON_NAME_SHARE)
  return new Set([...df].filter(([, n]) => n >= min).map(([name]) => name))
}

export function scoreTurns(turns: readonly EngineMessage[], options: ScoreOptions = {}): TurnScore[] {
  const texts = turns.map((t) => sample(t.text))
  const table = new TermTable()
  const termIds = texts.map((t) => table.intern(terms(t)))
  const novelty = noveltyScores(termIds, options)
  const names = texts.map(entityNames)
  const common = commonNames(names)
  return turns.map((turn, i) => {
    const s = turnSignals(texts[i]!, common, names[i])
    // Small talk is new words without news: its share of the turn does not count as novelty.
    const phatic = phaticShare(texts[i]!)
    const nov = (novelty[i] ?? 0) * (1 - phatic)
    const score = round(Math.min(10, 5 * nov + 2 * s.decision + s.numbers + s.code + s.entities))
    return {
      id: turn.id,
      score,
      signals: {
        novelty: round(nov),
        phatic: round(phatic),
        decision: round(s.decision),
        numbers: round(s.numbers),
        code: round(s.code),
        entities: round(s.entities)
      },
      class: classify(score, options)
    }
  })
}
