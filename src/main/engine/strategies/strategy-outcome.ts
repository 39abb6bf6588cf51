import { DEFAULT_TIERED_CONFIG, type TieredConfig } from './tiered/config'
import { compressTiered } from './tiered/compress'
import { addMessage, emptyTieredState, sealCurrentTopic } from './tiered/state'
import type { TieredContextItem, TieredEvent } from './tiered/types'
import { getTieredContext } from './tiered/view'
import { planImportance } from './importance/plan-importance'
import { scoreTurns, type TurnScore } from './importance/score-turns'
import { extractiveSummarizer } from './summarize'
import { summarizeExtractive } from '../extractive/summarize-extractive'

/** The share of the importance strategy's room for the digest of the turns it drops. */
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
    topics: Array<{ id: string; firstSeq: number; lastSeq: number; sealedBy?: string; summary?: string; summaryTokens?: number; messages: number }>
    bulks: Array<{ id: string; firstSeq: number; lastSeq: number; topicIds: string[]; summary: string; tokens: number }>
    events: TieredEvent[]
  }
  importance?: { scores: TurnScore[]; kept: number; compressed: number; dropped: number }
}

const LABEL: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' }

function renderTieredItem(item: TieredContextItem): string {
  switch (item.kind) {
    case 'bulk':
      return `### Archived topics (messages ${item.firstSeq}–${item.lastSeq})\n${item.text}`
    case 'topic-summary':
      return `### Earlier topic (messages ${item.firstSeq}–${item.lastSeq})\n${item.text}`
    case 'attention':
      return `### Earlier in the current topic (messages ${item.firstSeq}–${item.lastSeq})\n${item.text}`
    default:
      return `${LABEL[item.role] ?? item.role}: ${item.text}`
  }
}

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
  for (const m of options.messages) {
    state = addMessage(state, m, { historyTokens: options.historyTokens, config })
    if (options.userBoundaries.has(m.id) && state.current.messages.length > 0) state = sealCurrentTopic(state, 'user')
  }
  const result = compressTiered(state, { historyTokens: options.historyTokens }, {
    countTokens: options.countTokens,
    summarize: extractiveSummarizer(options.countTokens),
    config
  })
  const items = getTieredContext(result.state)
  // The summary covers everything up to the newest compressed item; verbatim messages after it follow.
  const cutoffSeq = Math.max(-1, ...items.filter((i) => i.kind !== 'message').map((i) => i.lastSeq))
  const cutoffIndex = options.messages.findLastIndex((m) => m.seq <= cutoffSeq)
  const dropped = result.events.filter((e) => e.kind === 'bulk-drop').length
  const summaryText = [
    ...(dropped ? [`[${dropped} of the oldest archives were dropped to fit the context window.]`] : []),
    ...items.filter((i) => i.lastSeq <= cutoffSeq).map(renderTieredItem)
  ].join('\n\n')
  const topics = [...result.state.topics, result.state.current].map((t) => ({
    id: t.id,
    firstSeq: t.firstSeq,
    lastSeq: t.lastSeq,
    ...(t.sealedBy ? { sealedBy: t.sealedBy } : {}),
    ...(t.summary !== undefined ? { summary: t.summary, summaryTokens: t.summaryTokens } : {}),
    messages: t.messages.length
  }))
  const bulks = result.state.bulks.map((b) => ({ id: b.id, firstSeq: b.firstSeq, lastSeq: b.lastSeq, topicIds: b.topicIds, summary: b.summary, tokens: b.tokens }))
  return { cutoffIndex, summaryText, tiered: { topics, bulks, events: result.events } }
}

/** Sigma ADR-006 over the whole history: shifts verbatim, important turns ~30%, routine ~10%. */
export function importanceOutcome(options: {
  messages: readonly EngineMessage[]
  historyTokens: number
  countTokens: CountTokens
  retentionTokens: number
}): StrategyOutcome {
  const scores = scoreTurns(options.messages)
  // Turns the plan must drop outright are not lost: they share a digest (the extractive summary of
  // all of them), which takes DIGEST_SHARE of the room; the plan gets the rest.
  const digestRoom = Math.floor(options.historyTokens * DIGEST_SHARE)
  const plan = planImportance(options.messages, scores, { historyTokens: options.historyTokens - digestRoom }, {
    countTokens: options.countTokens,
    summarize: extractiveSummarizer(options.countTokens),
    retentionTokens: options.retentionTokens
  })
  const firstRetained = plan.items.findIndex((i) => i.retained)
  const before = firstRetained === -1 ? plan.items : plan.items.slice(0, firstRetained)
  const acted = plan.acted && before.some((i) => i.action !== 'keep')
  const lastSeq = before.at(-1)?.seq
  const cutoffIndex = !acted || lastSeq === undefined ? -1 : options.messages.findLastIndex((m) => m.seq <= lastSeq)
  const lines = before
    .filter((i) => i.action !== 'drop')
    .map((i) => `${LABEL[i.role] ?? i.role}${i.action === 'compress' ? ` (condensed to ~${Math.round(i.targetRatio * 100)}%)` : ''}: ${i.text}`)
  const droppedIds = new Set(before.filter((i) => i.action === 'drop').map((i) => i.id))
  if (droppedIds.size > 0 && digestRoom > 0) {
    const digest = summarizeExtractive({
      messages: options.messages.filter((m) => droppedIds.has(m.id)).map((m) => ({ role: m.role, text: m.text, createdAt: m.createdAt })),
      targetTokens: digestRoom,
      countTokens: options.countTokens
    })
    if (digest) lines.unshift(`### Digest of ${droppedIds.size} routine turns\n${digest}\n\n### Turns by importance`)
  }
  const count = (a: string) => before.filter((i) => i.action === a).length
  return {
    cutoffIndex,
    summaryText: lines.join('\n'),
    importance: { scores, kept: count('keep'), compressed: count('compress'), dropped: count('drop') }
  }
}
