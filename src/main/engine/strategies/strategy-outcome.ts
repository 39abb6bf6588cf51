import { DEFAULT_TIERED_CONFIG, type TieredConfig } from './tiered/config'
import { compressTiered } from './tiered/compress'
import { addMessage, emptyTieredState, sealCurrentTopic } from './tiered/state'
import type { TieredContextItem, TieredEvent } from './tiered/types'
import { getTieredContext } from './tiered/view'
import { oneSelection } from './tiered/one-selection'
import { planImportance } from './importance/plan-importance'
import { scoreTurns, type TurnScore } from './importance/score-turns'
import { withoutPhatic } from './importance/signals'
import { extractiveSummarizer } from './summarize'
import { summarizeWithSources } from '../extractive/summarize-extractive'
import { withStatedDays } from '../extractive/dates'
import { SUMMARY_PREFIX } from '../build-context'

/** The share of the importance strategy's room its plan leaves aside (once for the digest of dropped turns): sizes the retained suffix. */
export const DIGEST_SHARE = 0.35
import type { CountTokens, EngineMessage } from '../types'

/**
 * What a non-rolling strategy decided, in the shape the rest of Distill already understands: one
 * summary text that stands for every message up to `cutoffIndex`, with the messages after it sent
 * verbatim. Everything the strategy keeps verbatim before the cutoff is written into the summary
 * as it is, so nothing it chose to keep is lost by this flattening.
 */
export interface StrategyOutcome {
  /** -1 when the strategy left everything verbatim. */
  cutoffIndex: number
  summaryText: string
  tiered?: {
    topics: Array<{
      id: string
      firstSeq: number
      lastSeq: number
      sealedBy?: string
      summary?: string
      summaryTokens?: number
      messages: number
    }>
    bulks: Array<{ id: string; firstSeq: number; lastSeq: number; topicIds: string[]; summary: string; tokens: number }>
    events: TieredEvent[]
  }
  importance?: { scores: TurnScore[]; kept: number; compressed: number; dropped: number }
}

const LABEL: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' }

function tieredTitle(item: TieredContextItem): string {
  const range = `(messages ${item.firstSeq}–${item.lastSeq})`
  switch (item.kind) {
    case 'bulk':
      return `### Archived topics ${range}`
    case 'topic-summary':
      return `### Earlier topic ${range}`
    default:
      return `### Earlier in the current topic ${range}`
  }
}

function renderTieredItem(item: TieredContextItem): string {
  return item.kind === 'message'
    ? `${LABEL[item.role] ?? item.role}: ${item.text}`
    : `${tieredTitle(item)}\n${item.text}`
}
const renderTiered = (items: readonly TieredContextItem[]) => items.map(renderTieredItem).join('\n\n')

/** ADR 033 / Agent Zero over the whole history, rebuilt from the stored messages. */
export function tieredOutcome(options: {
  messages: readonly EngineMessage[]
  historyTokens: number
  countTokens: CountTokens
  /** Messages after which the user started a new topic by hand. */
  userBoundaries: ReadonlySet<string>
  config?: TieredConfig
}): StrategyOutcome {
  const config = options.config ?? DEFAULT_TIERED_CONFIG
  let state = emptyTieredState()
  const messages = withStatedDays(options.messages)
  for (const m of messages) {
    state = addMessage(state, m, { historyTokens: options.historyTokens, config })
    if (options.userBoundaries.has(m.id) && state.current.messages.length > 0) state = sealCurrentTopic(state, 'user')
  }
  const result = compressTiered(
    state,
    { historyTokens: options.historyTokens },
    {
      countTokens: options.countTokens,
      summarize: extractiveSummarizer(options.countTokens),
      config
    }
  )
  const items = getTieredContext(result.state)
  // The summary covers everything up to the newest compressed item; verbatim messages after it follow.
  const cutoffSeq = Math.max(-1, ...items.filter((i) => i.kind !== 'message').map((i) => i.lastSeq))
  const cutoffIndex = options.messages.findLastIndex((m) => m.seq <= cutoffSeq)
  const dropped = result.events.filter((e) => e.kind === 'bulk-drop').length
  const before = items.filter((i) => i.lastSeq <= cutoffSeq)
  const one = oneSelection({
    items: before,
    messages,
    countTokens: options.countTokens,
    config,
    title: tieredTitle,
    render: renderTiered
  })
  const summaryText = [
    ...(dropped ? [`[${dropped} of the oldest archives were dropped to fit the context window.]`] : []),
    ...(one ? [one.text] : []),
    ...before.slice(one?.count ?? 0).map(renderTieredItem)
  ].join('\n\n')
  const topics = [...result.state.topics, result.state.current].map((t) => ({
    id: t.id,
    firstSeq: t.firstSeq,
    lastSeq: t.lastSeq,
    ...(t.sealedBy ? { sealedBy: t.sealedBy } : {}),
    ...(t.summary !== undefined ? { summary: t.summary, summaryTokens: t.summaryTokens } : {}),
    messages: t.messages.length
  }))
  const bulks = result.state.bulks.map((b) => ({
    id: b.id,
    firstSeq: b.firstSeq,
    lastSeq: b.lastSeq,
    topicIds: b.topicIds,
    summary: b.summary,
    tokens: b.tokens
  }))
  return { cutoffIndex, summaryText, tiered: { topics, bulks, events: result.events } }
}

/** What the summary message adds to its text in the context (its prefix and framing), kept out of the plan's room. */
const summaryFrame = (countTokens: CountTokens) => countTokens(SUMMARY_PREFIX) + 8

/** How much more a turn's sentences are worth in the notes than a turn scored 0 (Sigma's 0–10 importance). */
export const importanceWeight = (score: number) => 1 + Math.max(0, Math.min(10, score)) / 10

/**
 * Sigma ADR-006 over the whole history: the most recent turns verbatim, everything before them as notes,
 * one extractive selection in which a turn's importance weighs its sentences (an important turn gets
 * its facts in first, a routine one only what nothing else says). Printing turns whole or cut to 30% /
 * 10% each cost the room of many notes: a verbatim turn carries its small talk, a cut one ends in
 * fragments, and the digest of the rest repeated them (docs/quality.md "Tiered and importance").
 */
export function importanceOutcome(options: {
  messages: readonly EngineMessage[]
  historyTokens: number
  countTokens: CountTokens
  retentionTokens: number
}): StrategyOutcome {
  const { countTokens } = options
  const messages = withStatedDays(options.messages)
  const scores = scoreTurns(messages)
  const room = Math.max(0, options.historyTokens - summaryFrame(countTokens))
  // The plan decides the retained suffix (as much as before: its cap is a share of what the turns had
  // besides the notes); every older turn it would condense goes into the notes instead.
  const plan = planImportance(
    messages,
    scores,
    { historyTokens: room - Math.floor(room * DIGEST_SHARE) },
    { countTokens, summarize: () => '', retentionTokens: options.retentionTokens }
  )
  // The summary stands for everything up to the last turn not sent verbatim as it is.
  const cutoffIndex = plan.acted ? plan.items.findLastIndex((i) => !(i.retained && i.action === 'keep')) : -1
  const verbatimAfter = plan.items.slice(cutoffIndex + 1).reduce((s, i) => s + i.tokens, 0)
  const score = new Map(scores.map((s) => [s.id, s.score]))
  // The notes read the turns without their small talk (a turn that is only small talk not at all).
  const turns = messages
    .slice(0, cutoffIndex + 1)
    .map((m) => ({
      role: m.role,
      text: withoutPhatic(m.text),
      createdAt: m.createdAt,
      weight: importanceWeight(score.get(m.id) ?? 0),
      ...(m.statedDay !== undefined ? { statedDay: m.statedDay } : {})
    }))
    .filter((m) => m.text !== '')
  const target = room - verbatimAfter
  const notes =
    turns.length > 0 && target > 0
      ? summarizeWithSources({ messages: turns, targetTokens: target, countTokens })
      : { text: '', quoted: new Set<number>() }
  const before = cutoffIndex + 1
  return {
    cutoffIndex,
    summaryText: notes.text,
    importance: { scores, kept: 0, compressed: notes.quoted.size, dropped: before - notes.quoted.size }
  }
}
