import { DEFAULT_TIERED_CONFIG, type TieredConfig } from './tiered/config'
import { compressTiered } from './tiered/compress'
import { addMessage, emptyTieredState, sealCurrentTopic } from './tiered/state'
import type { TieredContextItem, TieredEvent } from './tiered/types'
import { getTieredContext } from './tiered/view'
import { planImportance } from './importance/plan-importance'
import { scoreTurns, type TurnScore } from './importance/score-turns'
import { withoutPhatic } from './importance/signals'
import { extractiveSummarizer } from './summarize'
import { summarizeExtractive } from '../extractive/summarize-extractive'
import { withStatedDays } from '../extractive/dates'
import { SUMMARY_PREFIX } from '../build-context'

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
  for (const m of withStatedDays(options.messages)) {
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

/** One line per shown turn; a condensed one ends with "…" (cheaper than a label, and the frame says details may be missing). */
const importanceLine = (i: { role: string; action: string; text: string }) =>
  `${LABEL[i.role] ?? i.role}: ${i.text}${i.action === 'compress' ? ' …' : ''}`

/**
 * Sigma ADR-006 over the whole history: shifts verbatim, important turns ~30%, routine ~10%, within
 * `historyTokens` (summary and retained turns together, labels and framing counted).
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
  // Turns the plan leaves out are not lost: they share a digest (the extractive summary of all of
  // them), which gets DIGEST_SHARE of the room and whatever the plan leaves unused.
  const digestRoom = Math.floor(room * DIGEST_SHARE)
  const lineTokens = countTokens(`${importanceLine({ role: 'assistant', action: 'compress', text: '' })}\n`) + 1
  const plan = planImportance(
    messages,
    scores,
    { historyTokens: room - digestRoom },
    {
      countTokens,
      summarize: extractiveSummarizer(countTokens),
      retentionTokens: options.retentionTokens,
      lineTokens
    }
  )
  // The summary stands for everything up to the last turn not sent verbatim as it is.
  const cutoffIndex = plan.acted ? plan.items.findLastIndex((i) => !(i.retained && i.action === 'keep')) : -1
  const before = plan.items.slice(0, cutoffIndex + 1)
  const verbatimAfter = plan.items.slice(cutoffIndex + 1).reduce((s, i) => s + i.tokens, 0)
  const shown = before.filter((i) => i.action !== 'drop')
  const droppedIds = new Set(before.filter((i) => i.action === 'drop').map((i) => i.id))
  // The digest reads the dropped turns without their small talk (a turn that is only small talk not at all).
  const dropped = messages
    .filter((m) => droppedIds.has(m.id))
    .map((m) => ({
      role: m.role,
      text: withoutPhatic(m.text),
      createdAt: m.createdAt,
      ...(m.statedDay !== undefined ? { statedDay: m.statedDay } : {})
    }))
    .filter((m) => m.text !== '')
  const header = (n: number) => `### Digest of ${n} other turns`
  const TURNS = '### Turns by importance'

  const render = (digestTokens: number, lines: typeof shown) => {
    const digest =
      dropped.length > 0 && digestTokens > 0
        ? summarizeExtractive({ messages: dropped, targetTokens: digestTokens, countTokens })
        : ''
    return [
      ...(digest ? [`${header(dropped.length)}\n${digest}\n`, ...(lines.length ? [TURNS] : [])] : []),
      ...lines.map(importanceLine)
    ].join('\n')
  }
  const shownTokens = () => countTokens(shown.map(importanceLine).join('\n'))
  let digestTokens = room - verbatimAfter - shownTokens() - countTokens(`${header(dropped.length)}\n\n${TURNS}\n`)
  let summaryText = render(digestTokens, shown)
  // Token counts of joined text are not exactly additive: whatever overshoots comes off the digest,
  // then off the lowest-scored lines.
  const score = new Map(scores.map((s) => [s.id, s.score]))
  for (let guard = 0; guard < 64 && summaryText !== '' && countTokens(summaryText) + verbatimAfter > room; guard++) {
    const over = countTokens(summaryText) + verbatimAfter - room
    if (digestTokens > 0) digestTokens = Math.max(0, digestTokens - over - 2)
    else {
      const worst = shown.reduce((w, i, k) => ((score.get(i.id) ?? 0) < (score.get(shown[w]!.id) ?? 0) ? k : w), 0)
      shown.splice(worst, 1)
    }
    summaryText = render(digestTokens, shown)
  }
  const count = (a: string) => before.filter((i) => i.action === a).length
  return {
    cutoffIndex,
    summaryText,
    importance: { scores, kept: count('keep'), compressed: count('compress'), dropped: count('drop') }
  }
}
