import type { CompressionPreview, CompressionReport } from '../../shared/contract'
import { restoresSnapshotId, type Snapshot, type SummarizerKind, type SummaryContent } from '../../shared/domain/snapshot'
import { activeSummary, cascadeBase, findSnapshot, insertSummary, listSnapshots, setSnapshotStatus, topicBoundaries } from '../db/repositories/snapshots-repo'
import { SUMMARY_PREFIX } from '../engine/build-context'
import { planCompression, type CompressionPlan } from '../engine/plan-compression'
import { compressionTrigger } from '../engine/trigger'
import type { EngineMessage } from '../engine/types'
import type { RetryPolicy } from '../providers/stream-reply'
import { AppError } from './app-error'
import type { ModelsService } from './models-service'
import type { ProvidersService } from './providers-service'
import type { ServiceDeps } from './service-deps'
import { createKeyedLock } from './session-lock'
import { boundaryContent, tierSnapshotRows } from './tier-snapshots'
import { planStrategyRun } from './strategy-run'
import { writeSummary, type SummaryRequest } from './write-summary'
import type { SettingsService } from './settings-service'
import type { Conversation, UsageService } from './usage-service'

type RunType = 'auto' | 'manual' | 'regenerate'

export interface RunOptions {
  type: RunType
  focus?: string
  retentionOverride?: number
  summarizer?: SummarizerKind
  /** Auto compression: the request's pending user message, which is never summarized. */
  beforeSeq?: number
}

export interface RunResult {
  snapshot: Snapshot
  report: CompressionReport
}


export type CompressionService = ReturnType<typeof createCompressionService>

const sum = (messages: readonly EngineMessage[]) => messages.reduce((s, m) => s + m.tokens, 0)

/**
 * The imperative shell around the pure engine (DESIGN §5): plans, summarizes, checks the result
 * fits, writes the snapshot and its status changes in one transaction, and reports through events.
 * One compression per chat at a time; a reply waits for a running one.
 */
export function createCompressionService(
  deps: ServiceDeps & {
    usage: UsageService
    settings: SettingsService
    providers: ProvidersService
    models: ModelsService
    stallMs?: number
    retry?: RetryPolicy
  }
) {
  const { db, clock, ids, emit, log, usage, settings, providers, models } = deps
  const lock = createKeyedLock()
  const running = new Map<string, AbortController>()

  function settingsFor() {
    const s = settings.get()
    return { thresholdPercent: s.thresholdPercent, retentionTokens: s.retentionTokens, minimumTokens: s.minimumTokens }
  }

  /** The active history split into what may be compressed and the pending input (before a request). */
  function split(conv: Conversation, beforeSeq?: number): { history: EngineMessage[]; pending?: EngineMessage } {
    const last = conv.history.at(-1)
    if (beforeSeq !== undefined && last?.role === 'user') return { history: conv.history.slice(0, -1), pending: last }
    return { history: conv.history }
  }

  function planFor(conv: Conversation, options: RunOptions, summaryTokensCap?: number): CompressionPlan & { pending?: EngineMessage } {
    const { history, pending } = split(conv, options.beforeSeq)
    const summary = conv.summary
      ? {
          id: conv.summary.id,
          text: conv.summary.content.summaryText,
          tokens: conv.summaryTokens,
          cutoffSeq: conv.summary.cutoffSeq,
          cutoffMessageId: conv.summary.messageCutoffId ?? '',
          firstMessageId: conv.summary.content.messageRange.firstMessageId,
          messagesIncluded: conv.summary.content.messagesIncluded,
          originalTokens: conv.summary.content.originalTokenCount
        }
      : undefined
    const plan = planCompression({
      messages: history,
      summary,
      systemTokens: conv.systemTokens,
      pendingInputTokens: pending?.tokens ?? 0,
      overheadTokens: conv.overheadTokens,
      budget: conv.budget,
      settings: settingsFor(),
      manual: options.type !== 'auto',
      retentionOverride: options.retentionOverride,
      summaryTokensCap
    })
    return { ...plan, pending }
  }

  const summarize = (
    conv: Conversation,
    request: SummaryRequest,
    options: RunOptions,
    signal: AbortSignal
  ) => writeSummary({ settings, providers, models, log, emit, stallMs: deps.stallMs, retry: deps.retry }, conv, request, options.type, options.summarizer, signal)

  /** Writes the snapshot and the status change of the one it replaces, atomically. */
  function commit(
    conv: Conversation,
    content: Omit<SummaryContent, 'compressionTimestamp' | 'summaryTokenCount' | 'contextTokensAfter'>,
    cutoffId: string,
    contextTokensAfterWithoutSummary: number,
    /** More rows written in the same transaction (the tiered strategy's topics and bulks). */
    extra?: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], snapshotId: string) => void
  ): Snapshot {
    const summaryTokens = conv.countText(SUMMARY_PREFIX + content.summaryText, 'system')
    const id = ids()
    db.transaction((tx) => {
      const current = activeSummary(tx, conv.session.id)
      if ((current?.id ?? null) !== (conv.summary?.id ?? null)) {
        throw new AppError('conflict', 'The summary changed while this one was being written. Try again.')
      }
      if (current) setSnapshotStatus(tx, current.id, 'superseded')
      insertSummary(tx, {
        id,
        sessionId: conv.session.id,
        content: {
          ...content,
          compressionTimestamp: new Date(clock.now()).toISOString(),
          summaryTokenCount: summaryTokens,
          contextTokensAfter: conv.calibrate(contextTokensAfterWithoutSummary + summaryTokens)
        },
        messageCutoffId: cutoffId,
        tokenCount: summaryTokens,
        createdAt: clock.now()
      })
      extra?.(tx, id)
    })
    return findSnapshot(db, id)!
  }

  /** A finished run: the events every kind of run sends, then its result. */
  function finished(sessionId: string, snapshot: Snapshot, report: CompressionReport): RunResult {
    emit('compression.done', { sessionId, snapshot, report })
    emit('usage.changed', { sessionId })
    return { snapshot, report }
  }

  /** A failed run: reported as an event, returned as the error to throw (internal ones logged). */
  function failed(sessionId: string, type: RunType, err: unknown, cancelled = false): AppError {
    const error = err instanceof AppError ? err : new AppError('internal', 'The summary could not be written.')
    if (!(err instanceof AppError)) log.error('Compression failed', err)
    emit('compression.failed', { sessionId, type, code: cancelled ? 'cancelled' : error.code, message: error.message })
    return error
  }

  /**
   * The tiered and importance strategies (DESIGN §5) decide over the whole stored history, locally;
   * their result is stored like any summary, so context, undo and the UI work the same.
   */
  async function executeStrategy(conv: Conversation, strategy: 'tiered' | 'importance', options: RunOptions): Promise<RunResult | undefined> {
    const sessionId = conv.session.id
    const { pending } = split(conv, options.beforeSeq)
    const upto = options.beforeSeq === undefined ? Infinity : options.beforeSeq - 1
    const run = planStrategyRun({
      conv,
      strategy,
      all: usage.engineMessages(sessionId, 0, upto).filter((m) => m.id !== pending?.id),
      pending,
      type: options.type === 'auto' ? 'auto' : 'manual',
      retentionOverride: options.retentionOverride,
      retentionTokens: settings.get().retentionTokens,
      focus: options.focus,
      userBoundaries: topicBoundaries(db, sessionId)
    })
    if (!run) {
      if (options.type === 'auto') return undefined
      throw new AppError('conflict', 'There is nothing new to summarize yet.')
    }
    emit('compression.started', { sessionId, type: options.type, messages: run.covered.length })
    try {
      const snapshot = commit(conv, run.content, run.covered.at(-1)!.id, run.tokensAfterWithoutSummary, (tx, summaryId) => {
        for (const row of tierSnapshotRows(run.outcome, run.all, summaryId, new Date(clock.now()).toISOString())) {
          insertSummary(tx, { ...row, id: ids(), sessionId, createdAt: clock.now() })
        }
      })
      const report: CompressionReport = {
        type: options.type === 'auto' ? 'auto' : 'manual',
        messagesSummarized: run.covered.length,
        tokensBefore: run.content.contextTokensBefore,
        tokensAfter: snapshot.content.contextTokensAfter,
        summaryPreview: run.outcome.summaryText.slice(0, 200),
        summarizer: 'extractive',
        fellBack: false,
        warnings: []
      }
      return finished(sessionId, snapshot, report)
    } catch (err) {
      throw failed(sessionId, options.type, err)
    }
  }

  async function execute(sessionId: string, options: RunOptions): Promise<RunResult | undefined> {
    const conv = usage.conversation(sessionId, options.beforeSeq)
    const strategy = conv.session.strategy ?? settings.get().strategy
    if (strategy !== 'rolling' && options.summarizer !== 'truncate') return executeStrategy(conv, strategy, options)
    const plan = planFor(conv, options)
    if (plan.empty) {
      if (options.type === 'auto') return undefined
      throw new AppError('conflict', 'There is nothing new to summarize yet.')
    }
    const controller = new AbortController()
    running.set(sessionId, controller)
    emit('compression.started', { sessionId, type: options.type, messages: plan.toSummarize.length })
    try {
      const messagesIncluded = (conv.summary?.content.messagesIncluded ?? 0) + plan.toSummarize.length
      const result = await summarize(
        conv,
        {
          previousSummary: conv.summary?.content.summaryText,
          messages: plan.toSummarize,
          targetTokens: plan.targetSummaryTokens,
          focus: options.focus,
          messagesIncluded
        },
        options,
        controller.signal
      )
      if (controller.signal.aborted) throw new AppError('conflict', 'The summary was cancelled.')
      const first = plan.toSummarize[0]!
      const last = plan.toSummarize.at(-1)!
      const warnings = [...plan.warnings, ...result.warnings]
      const tokensBefore = conv.calibrate(plan.tokensBefore)
      const snapshot = commit(
        conv,
        {
          summaryText: result.text,
          messageRange: { firstMessageId: conv.summary?.content.messageRange.firstMessageId ?? first.id, lastMessageId: last.id },
          compressionType: options.type === 'auto' ? 'auto' : 'manual',
          originalTokenCount: (conv.summary?.content.originalTokenCount ?? 0) + sum(plan.toSummarize),
          messagesIncluded,
          strategy: 'rolling',
          summarizer: result.summarizer,
          restoresSnapshotId: conv.summary?.id ?? null,
          baseSnapshotId: conv.summary?.id ?? null,
          focus: options.focus?.trim() || null,
          retentionTokens: plan.retentionTokens,
          contextTokensBefore: tokensBefore,
          warnings
        },
        last.id,
        conv.systemTokens + sum(plan.retained) + (plan.pending?.tokens ?? 0) + conv.overheadTokens
      )
      const report: CompressionReport = {
        type: options.type === 'auto' ? 'auto' : 'manual',
        messagesSummarized: plan.toSummarize.length,
        tokensBefore,
        tokensAfter: snapshot.content.contextTokensAfter,
        summaryPreview: result.text.slice(0, 200),
        summarizer: result.summarizer,
        fellBack: result.fellBack,
        warnings
      }
      return finished(sessionId, snapshot, report)
    } catch (err) {
      throw failed(sessionId, options.type, err, controller.signal.aborted)
    } finally {
      running.delete(sessionId)
    }
  }

  return {
    preview(sessionId: string, retentionTokens?: number): CompressionPreview {
      const conv = usage.conversation(sessionId)
      const plan = planFor(conv, { type: 'manual', retentionOverride: retentionTokens })
      return {
        totalMessages: conv.history.length + (conv.summary?.content.messagesIncluded ?? 0),
        messagesToSummarize: plan.toSummarize.length,
        messagesKept: plan.retained.length,
        tokensBefore: conv.calibrate(plan.tokensBefore),
        estimatedTokensAfter: conv.calibrate(plan.estimatedTokensAfter),
        targetSummaryTokens: plan.targetSummaryTokens,
        retentionTokens: plan.retentionTokens,
        belowMinimum: plan.belowMinimum,
        minimumTokens: settings.get().minimumTokens,
        summaryExists: !!conv.summary,
        warnings: plan.warnings
      }
    },

    /** Manual compression (FR-2). */
    run(sessionId: string, options: Omit<RunOptions, 'type' | 'beforeSeq'> = {}): Promise<RunResult> {
      return lock.run(sessionId, async () => (await execute(sessionId, { ...options, type: 'manual' }))!)
    },

    /**
     * Before each request (FR-1.2): compress when the context would pass the threshold. Never
     * throws: a failed auto-compression is reported and the request goes ahead (FR-5.1.1).
     */
    beforeRequest(sessionId: string, beforeSeq: number, options: { summarizer?: SummarizerKind } = {}): Promise<RunResult | undefined> {
      return lock.run(sessionId, async () => {
        const conv = usage.conversation(sessionId, beforeSeq)
        const auto = conv.session.autoCompress ?? settings.get().autoCompress
        if (!auto) return undefined
        const { history, pending } = split(conv, beforeSeq)
        const compressible = conv.summaryTokens + sum(history)
        const contextTokens = conv.calibrate(conv.systemTokens + compressible + (pending?.tokens ?? 0) + conv.overheadTokens)
        const decision = compressionTrigger({ contextTokens, compressibleTokens: compressible, budget: conv.budget, settings: settingsFor() })
        if (!decision.compress) return undefined
        try {
          return await execute(sessionId, { type: 'auto', beforeSeq, summarizer: options.summarizer })
        } catch (err) {
          log.warn('Auto-compression failed; sending without it', err instanceof Error ? err.message : err)
          return undefined
        }
      })
    },

    /** Summarizes the active summary's range again (same previous summary, same messages). */
    regenerate(sessionId: string, focus?: string): Promise<RunResult> {
      return lock.run(sessionId, async () => {
        const active = activeSummary(db, sessionId)
        if (!active) throw new AppError('conflict', 'There is no summary to regenerate.')
        // The same range as the active version: from the summary it was cascaded from, not the one it replaced.
        const base = cascadeBase(db, active)
        const conv = usage.conversation(sessionId)
        const messages = usage.engineMessages(sessionId, base?.cutoffSeq ?? 0, active.cutoffSeq)
        const controller = new AbortController()
        running.set(sessionId, controller)
        emit('compression.started', { sessionId, type: 'regenerate', messages: messages.length })
        try {
          const result = await summarize(
            conv,
            {
              previousSummary: base?.content.summaryText,
              messages,
              targetTokens: Math.max(active.tokenCount, planFor(conv, { type: 'manual' }).targetSummaryTokens),
              focus: focus ?? active.content.focus ?? undefined,
              messagesIncluded: active.content.messagesIncluded
            },
            { type: 'regenerate' },
            controller.signal
          )
          const { summaryText: _old, compressionTimestamp: _t, summaryTokenCount: _s, contextTokensAfter: _a, ...kept } = active.content
          const snapshot = commit(
            conv,
            {
              ...kept,
              summaryText: result.text,
              summarizer: result.summarizer,
              focus: focus?.trim() || active.content.focus,
              restoresSnapshotId: active.id,
              baseSnapshotId: base?.id ?? null,
              previousSnapshotId: undefined,
              warnings: result.warnings
            },
            active.messageCutoffId!,
            conv.systemTokens + sum(conv.history) + conv.overheadTokens
          )
          const report: CompressionReport = {
            type: 'manual',
            messagesSummarized: messages.length,
            tokensBefore: active.content.contextTokensAfter,
            tokensAfter: snapshot.content.contextTokensAfter,
            summaryPreview: result.text.slice(0, 200),
            summarizer: result.summarizer,
            fellBack: result.fellBack,
            warnings: result.warnings
          }
          return finished(sessionId, snapshot, report)
        } catch (err) {
          throw failed(sessionId, 'regenerate', err, controller.signal.aborted)
        } finally {
          running.delete(sessionId)
        }
      })
    },

    /** Restores the context as it was before the latest summary, exactly. */
    undo(sessionId: string): Promise<{ active: Snapshot | null }> {
      return lock.run(sessionId, async () => {
        const active = activeSummary(db, sessionId)
        if (!active) throw new AppError('conflict', 'There is no summary to undo.')
        const restores = restoresSnapshotId(active.content)
        const previous = restores ? findSnapshot(db, restores) : undefined
        db.transaction((tx) => {
          setSnapshotStatus(tx, active.id, 'undone')
          if (previous) setSnapshotStatus(tx, previous.id, 'active')
        })
        emit('compression.changed', { sessionId })
        emit('usage.changed', { sessionId })
        return { active: previous ? findSnapshot(db, previous.id)! : null }
      })
    },

    cancel(sessionId: string): { cancelled: boolean } {
      const controller = running.get(sessionId)
      controller?.abort()
      return { cancelled: !!controller }
    },

    active(sessionId: string): { summary: Snapshot | null; running: boolean } {
      return { summary: activeSummary(db, sessionId) ?? null, running: running.has(sessionId) }
    },

    snapshots: (sessionId: string) => listSnapshots(db, sessionId),

    /** Marks the last message as the end of a topic (the tiered strategy starts a new one after it). */
    newTopic(sessionId: string): { marked: boolean } {
      const conv = usage.conversation(sessionId)
      const last = conv.history.at(-1)
      if (!last || topicBoundaries(db, sessionId).has(last.id)) return { marked: false }
      insertSummary(db, {
        id: ids(),
        kind: 'topic',
        sessionId,
        content: boundaryContent(last.id, new Date(clock.now()).toISOString()),
        messageCutoffId: last.id,
        tokenCount: 0,
        createdAt: clock.now()
      })
      emit('compression.changed', { sessionId })
      return { marked: true }
    },

    /** Waits for the chat's queued work (a reply calls this before it streams). */
    idle: (sessionId: string) => lock.run(sessionId, async () => undefined)
  }
}
