import type { SummaryContent } from '../../../shared/domain/snapshot'
import type { StrategyOutcome } from '../../engine/strategies/strategy-outcome'
import { totalTokens, type EngineMessage } from '../../engine/types'

/** A snapshot row as the repository inserts it. */
export interface TierSnapshotRow {
  kind: 'topic' | 'bulk'
  content: SummaryContent
  messageCutoffId: string
  tokenCount: number
}

/** The fields every non-summary snapshot leaves at their neutral value. */
function neutral(timestamp: string): Omit<SummaryContent, 'summaryText' | 'messageRange' | 'tiered'> {
  return {
    compressionTimestamp: timestamp,
    compressionType: 'auto',
    originalTokenCount: 0,
    summaryTokenCount: 0,
    messagesIncluded: 0,
    strategy: 'tiered',
    summarizer: 'extractive',
    restoresSnapshotId: null,
    baseSnapshotId: null,
    focus: null,
    retentionTokens: 0,
    contextTokensBefore: 0,
    contextTokensAfter: 0,
    warnings: []
  }
}

/**
 * The tiered run's sealed-topic summaries and bulk archives as `topic` / `bulk` snapshots (ADR 033),
 * each linked to the summary snapshot of its run.
 */
export function tierSnapshotRows(
  outcome: StrategyOutcome,
  all: readonly EngineMessage[],
  summaryId: string,
  timestamp: string
): TierSnapshotRow[] {
  if (!outcome.tiered) return []
  const bySeq = new Map(all.map((m) => [m.seq, m]))
  const rows: TierSnapshotRow[] = []
  const add = (
    kind: 'topic' | 'bulk',
    range: { firstSeq: number; lastSeq: number },
    text: string,
    tokens: number,
    merged: number
  ) => {
    const first = bySeq.get(range.firstSeq)
    const last = bySeq.get(range.lastSeq)
    if (!first || !last) return
    const covered = all.filter((m) => m.seq >= range.firstSeq && m.seq <= range.lastSeq)
    rows.push({
      kind,
      messageCutoffId: last.id,
      tokenCount: tokens,
      content: {
        ...neutral(timestamp),
        summaryText: text,
        messageRange: { firstMessageId: first.id, lastMessageId: last.id },
        originalTokenCount: totalTokens(covered),
        summaryTokenCount: tokens,
        messagesIncluded: covered.length,
        warnings: merged ? [`Merges ${merged} topics.`] : [],
        tiered: { topics: [], bulks: [], role: kind, summarySnapshotId: summaryId }
      }
    })
  }
  for (const t of outcome.tiered.topics)
    if (t.summary !== undefined) add('topic', t, t.summary, t.summaryTokens ?? 0, 0)
  for (const b of outcome.tiered.bulks) add('bulk', b, b.summary, b.tokens, b.topicIds.length)
  return rows
}

/** The mark the user's "New topic" leaves after a message. */
export function boundaryContent(messageId: string, timestamp: string): SummaryContent {
  return {
    ...neutral(timestamp),
    compressionType: 'manual',
    summarizer: 'user',
    summaryText: '',
    messageRange: { firstMessageId: messageId, lastMessageId: messageId },
    tiered: { topics: [], bulks: [], role: 'boundary' }
  }
}
