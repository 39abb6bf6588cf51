import type { Strategy } from '../../../shared/domain/session'
import type { SummaryContent } from '../../../shared/domain/snapshot'
import { AFTER_COMPRESSION_TARGET } from '../../engine/strategies/rolling/plan-compression'
import type { StrategyOutcome } from '../../engine/strategies/strategy-outcome'
import { type EngineMessage, totalTokens } from '../../engine/types'
import type { Conversation } from '../conversation/conversation'
import { summarizableText } from '../../../shared/domain/user-notes'

export interface StrategyRun {
  outcome: StrategyOutcome
  all: EngineMessage[]
  covered: EngineMessage[]
  retained: EngineMessage[]
  /** The summary content, but for what the writer adds (timestamp, token counts after). */
  content: Omit<SummaryContent, 'compressionTimestamp' | 'summaryTokenCount' | 'contextTokensAfter'>
  /** Counted tokens of the history the summary replaces (see RunRequest). */
  coveredTokens: number
}

/** What a strategy is asked: the whole history and the room it has (see StrategyJob). */
export interface StrategyAsk {
  strategy: Exclude<Strategy, 'rolling'>
  messages: EngineMessage[]
  historyTokens: number
  retentionTokens: number
  userBoundaries: string[]
}

/**
 * Runs the tiered or importance strategy over the whole stored history (`all`, pending input
 * excluded; `decide` runs it, off the main thread) and describes the result as a summary up to a
 * cutoff. Undefined when it changes nothing.
 */
export async function planStrategyRun(options: {
  conv: Conversation
  strategy: Exclude<Strategy, 'rolling'>
  all: EngineMessage[]
  pending?: EngineMessage
  type: 'auto' | 'manual'
  retentionOverride?: number
  retentionTokens: number
  focus?: string
  userBoundaries: ReadonlySet<string>
  decide(ask: StrategyAsk): Promise<StrategyOutcome>
}): Promise<StrategyRun | undefined> {
  const { conv, all, pending } = options
  const fixed = pending ? conv.fixedTokens() : conv.fixedTokens() - (conv.pending?.tokens ?? 0)
  const autoRoom = Math.max(0, Math.floor(conv.budget.countedThreshold * AFTER_COMPRESSION_TARGET) - fixed)
  // By hand, with no retention given, the history is brought down to a quarter of its size.
  const historyTokens =
    options.type === 'auto'
      ? autoRoom
      : Math.min(autoRoom, options.retentionOverride ?? Math.floor(totalTokens(all) / 4))
  const outcome = await options.decide({
    strategy: options.strategy,
    messages: all,
    historyTokens,
    retentionTokens: options.retentionOverride ?? options.retentionTokens,
    userBoundaries: [...options.userBoundaries]
  })
  const unchanged =
    conv.summary &&
    all[outcome.cutoffIndex] &&
    all[outcome.cutoffIndex]!.seq <= conv.summary.cutoffSeq &&
    outcome.summaryText === (summarizableText(conv.summary.content) ?? '')
  if (outcome.cutoffIndex < 0 || unchanged) return undefined
  const covered = all.slice(0, outcome.cutoffIndex + 1)
  const retained = all.slice(outcome.cutoffIndex + 1)
  return {
    outcome,
    all,
    covered,
    retained,
    // The strategy decides over the whole history: what it covers is all the history after the
    // active summary but the retained messages and the pending input.
    coveredTokens: conv.historyTokens - totalTokens(retained) - (pending?.tokens ?? 0),
    content: {
      summaryText: outcome.summaryText,
      messageRange: { firstMessageId: covered[0]!.id, lastMessageId: covered.at(-1)!.id },
      compressionType: options.type,
      originalTokenCount: totalTokens(covered),
      messagesIncluded: covered.length,
      strategy: options.strategy,
      summarizer: 'extractive',
      restoresSnapshotId: conv.summary?.id ?? null,
      // Made from the whole history, not cascaded: a regenerate re-reads every covered message.
      baseSnapshotId: null,
      focus: options.focus?.trim() || null,
      retentionTokens: totalTokens(retained),
      contextTokensBefore: conv.contextTokens(),
      warnings: [],
      ...(outcome.tiered
        ? { tiered: { topics: outcome.tiered.topics, bulks: outcome.tiered.bulks, role: 'history' as const } }
        : {}),
      ...(outcome.importance
        ? {
            importance: {
              kept: outcome.importance.kept,
              compressed: outcome.importance.compressed,
              dropped: outcome.importance.dropped
            }
          }
        : {})
    }
  }
}
