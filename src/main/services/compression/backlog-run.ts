import { totalTokens, type EngineMessage } from '../../engine/types'
import type { CompressionPlan } from '../../engine/strategies/rolling/plan-compression'
import { backlogSpan, backlogTailStart } from '../../db/repositories/messages/backlog-repo'
import { summarizableText } from '../../../shared/domain/user-notes'
import type { ServiceDeps } from '../service-deps'
import type { SettingsService } from '../settings/settings-service'
import type { Conversation } from '../conversation/conversation'
import type { UsageService } from '../conversation/usage-service'
import { BACKLOG_NEAR_TOKENS, backlogNote, isBacklog } from './summaries/backlog'
import { APPEND_SEPARATOR, writeSummary, type SummaryDeps } from './summaries/write-summary'
import type { RunOptions, RunRequest } from './compression-run'

export interface BacklogRunDeps {
  db: ServiceDeps['db']
  usage: UsageService
  settings: SettingsService
  planFor: (
    conv: Conversation,
    options: RunOptions,
    summaryTokensCap: number | undefined,
    read: { history: EngineMessage[]; pending?: EngineMessage }
  ) => CompressionPlan & { pending?: EngineMessage }
  summaryDeps: SummaryDeps
}

/** The quick summary of a backlog (compression-requests.ts asks it before the rolling run). */
export function createBacklogRun({ db, usage, settings, planFor, summaryDeps }: BacklogRunDeps) {
  /**
   * An automatic offline summary over a backlog (an imported or never-compressed long history, see
   * summaries/backlog.ts): only the newest part of the history is read, planned and summarized as
   * usual; the older rest is covered by the same cutoff, announced in the text, and summarized whole
   * in the background. Undefined when the chat has no backlog or this run is not such a summary.
   */
  return async function backlogRun(conv: Conversation, options: RunOptions): Promise<RunRequest | undefined> {
    const summarizer = options.modelOnly ? 'llm' : (options.summarizer ?? settings.get().summarizer)
    if (summarizer !== 'extractive' || options.type !== 'auto' || options.focus?.trim()) return undefined
    if (!isBacklog(conv.historyTokens, conv.budget.window)) return undefined
    const sessionId = conv.session.id
    const afterSeq = conv.summary?.cutoffSeq ?? 0
    const beforeSeq = options.beforeSeq ?? Infinity
    const tailFirst = backlogTailStart(
      db,
      sessionId,
      afterSeq,
      beforeSeq,
      conv.budget.countedUsable + BACKLOG_NEAR_TOKENS
    )
    if (!tailFirst) return undefined
    const tail = await usage.engineMessagesInPages(sessionId, tailFirst.seq - 1, beforeSeq - 1)
    const pending = options.beforeSeq !== undefined && tail.at(-1)?.id === conv.pending?.id ? tail.at(-1) : undefined
    const history = pending ? tail.slice(0, -1) : tail
    const plan = planFor(conv, options, undefined, { history, pending })
    if (plan.empty) return undefined
    const far = backlogSpan(db, sessionId, afterSeq, tailFirst.seq)
    const nearTokens = totalTokens(plan.toSummarize)
    // As the conversation counts them: the whole history's count less what was read of it.
    const farTokens = Math.max(0, conv.historyTokens - totalTokens(tail))
    const last = plan.toSummarize.at(-1)!
    const messagesIncluded = (conv.summary?.content.messagesIncluded ?? 0) + far.messages + plan.toSummarize.length
    return {
      conv,
      type: options.type,
      messages: far.messages + plan.toSummarize.length,
      tokensBefore: conv.contextTokens(),
      summarize: async (signal) => {
        const written = await writeSummary({
          ...summaryDeps,
          conv,
          request: {
            previousSummary: conv.summary ? summarizableText(conv.summary.content) : undefined,
            messages: plan.toSummarize,
            targetTokens: plan.targetSummaryTokens,
            messagesIncluded
          },
          summarizer: 'extractive',
          onModelFailure: 'throw',
          signal
        })
        return { ...written, text: backlogNote(far) + APPEND_SEPARATOR + written.text }
      },
      content: {
        messageRange: {
          firstMessageId: conv.summary?.content.messageRange.firstMessageId ?? far.first.id,
          lastMessageId: last.id
        },
        compressionType: 'auto',
        originalTokenCount: (conv.summary?.content.originalTokenCount ?? 0) + farTokens + nearTokens,
        messagesIncluded,
        strategy: 'rolling',
        restoresSnapshotId: conv.summary?.id ?? null,
        baseSnapshotId: conv.summary?.id ?? null,
        focus: null,
        retentionTokens: plan.retentionTokens,
        contextTokensBefore: conv.contextTokens(),
        ...(conv.summary?.content.userNotes ? { userNotes: conv.summary.content.userNotes } : {}),
        backlog: { messages: far.messages, tokens: farTokens, firstSeq: far.first.seq, lastSeq: far.last.seq }
      },
      warnings: plan.warnings,
      cutoffId: last.id,
      coveredTokens: farTokens + nearTokens,
      span: { firstSeq: far.first.seq, lastSeq: last.seq, tokens: farTokens + nearTokens },
      ...(options.background ? { background: options.background } : {})
    }
  }
}
