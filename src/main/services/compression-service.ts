import type { CompressionPreview } from '../../shared/contract'
import { restoresSnapshotId, type RunType, type Snapshot, type SummarizerKind } from '../../shared/domain/snapshot'
import { activeSummary, cascadeBase, findSnapshot, insertSummary, listSnapshots, setSnapshotStatus, topicBoundaries } from '../db/repositories/snapshots-repo'
import { planCompression, type CompressionPlan } from '../engine/plan-compression'
import { compressionTrigger } from '../engine/trigger'
import { type EngineMessage, totalTokens } from '../engine/types'
import type { RetryPolicy } from '../providers/stream-reply'
import { AppError } from '../../shared/app-error'
import type { ModelsService } from './models-service'
import type { ProvidersService } from './providers-service'
import type { ServiceDeps } from './service-deps'
import { createKeyedLock } from './session-lock'
import { boundaryContent, tierSnapshotRows } from './tier-snapshots'
import { planStrategyRun, type StrategyAsk } from './strategy-run'
import { isPaid } from './summary-cost'
import { summarizationModelOf, writeSummary } from './write-summary'
import { createBackgroundSummaries } from './background-summaries'
import { createPreparedSummaries, type PrepareTrigger } from './prepared-summaries'
import { createCompressionRunner, type RunRequest, type RunResult } from './compression-run'
import type { SettingsService } from './settings-service'
import type { Conversation } from './conversation'
import type { UsageService } from './usage-service'
import type { ExtractiveThread } from '../workers/extractive-thread'
import { runStrategyJob, type StrategyJob } from '../workers/strategy-job'

export interface RunOptions {
  type: RunType
  focus?: string
  retentionOverride?: number
  summarizer?: SummarizerKind
  /** Auto compression: the request's pending user message, which is never summarized. */
  beforeSeq?: number
  /** A quick summary that a model summary written in the background will replace. */
  background?: 'writing'
  /** A summary prepared ahead: only the model writes it (a failure is retried later, not replaced). */
  modelOnly?: boolean
}

export type { RunResult }

export type CompressionService = ReturnType<typeof createCompressionService>

/** A strategy run on this thread (no worker given): the messages keep their lazily read text. */
function inlineStrategyJob(ask: StrategyAsk, conv: Conversation): StrategyJob {
  return { ...ask, spec: conv.spec, messages: ask.messages }
}

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
    /** Writes extractive summaries off the main thread. */
    extractive?: ExtractiveThread
    /** Waits before each retry of a model summary written in the background. */
    backgroundRetryMs?: readonly number[]
    /** Waits before a failed summary written ahead is tried again. */
    preparedRetryMs?: readonly number[]
  }
) {
  const { db, clock, ids, emit, log, usage, settings, providers, models } = deps
  const lock = createKeyedLock()

  function settingsFor() {
    const s = settings.get()
    return { thresholdPercent: s.thresholdPercent, retentionTokens: s.retentionTokens, minimumTokens: s.minimumTokens }
  }

  /** The active history split into what may be compressed and the pending input (before a request). */
  function split(conv: Conversation, beforeSeq?: number): { history: EngineMessage[]; pending?: EngineMessage } {
    const pending = beforeSeq !== undefined ? conv.pending : undefined
    return { history: pending ? conv.history.slice(0, -1) : conv.history, pending }
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

  const runner = createCompressionRunner(deps)
  const summaryDeps = { clock, settings, providers, models, log, emit, stallMs: deps.stallMs, retry: deps.retry, extractive: deps.extractive }
  const nothingNew = () => new AppError('nothing_to_do', 'There is nothing new to summarize yet.')

  /**
   * The tiered and importance strategies (DESIGN §5) decide over the whole stored history, locally;
   * their result is stored like any summary, so context, undo and the UI work the same.
   */
  async function strategyRun(conv: Conversation, strategy: 'tiered' | 'importance', options: RunOptions): Promise<RunRequest | undefined> {
    const sessionId = conv.session.id
    // Not `split`: that reads the history after the summary at once, and the strategy reads it all in pages.
    const pending = options.beforeSeq !== undefined ? conv.pending : undefined
    const upto = options.beforeSeq === undefined ? Infinity : options.beforeSeq - 1
    const run = await planStrategyRun({
      conv,
      strategy,
      all: (await usage.engineMessagesInPages(sessionId, 0, upto)).filter((m) => m.id !== pending?.id),
      pending,
      type: options.type === 'auto' ? 'auto' : 'manual',
      retentionOverride: options.retentionOverride,
      retentionTokens: settings.get().retentionTokens,
      focus: options.focus,
      userBoundaries: topicBoundaries(db, sessionId),
      decide: (ask) => (deps.extractive ? deps.extractive.strategy({ ...ask, spec: conv.spec }) : Promise.resolve(runStrategyJob(inlineStrategyJob(ask, conv))))
    })
    if (!run) return undefined
    const { summaryText, summarizer: _s, warnings, ...content } = run.content
    return {
      conv,
      type: options.type,
      messages: run.covered.length,
      tokensBefore: run.content.contextTokensBefore,
      summarize: () => ({ text: summaryText, summarizer: 'extractive', fellBack: false, warnings: [] }),
      content,
      warnings,
      cutoffId: run.covered.at(-1)!.id,
      tokensAfterWithoutSummary: run.tokensAfterWithoutSummary,
      extra: (tx, summaryId) => {
        for (const row of tierSnapshotRows(run.outcome, run.all, summaryId, new Date(clock.now()).toISOString())) {
          insertSummary(tx, { ...row, id: ids(), sessionId, createdAt: clock.now() })
        }
      }
    }
  }

  /** The rolling strategy (and the truncation baseline): the plan's messages plus the previous summary. */
  function rollingRun(conv: Conversation, options: RunOptions): RunRequest | undefined {
    const plan = planFor(conv, options)
    if (plan.empty) return undefined
    const messagesIncluded = (conv.summary?.content.messagesIncluded ?? 0) + plan.toSummarize.length
    const first = plan.toSummarize[0]!
    const last = plan.toSummarize.at(-1)!
    const tokensBefore = conv.calibrate(plan.tokensBefore)
    return {
      conv,
      type: options.type,
      messages: plan.toSummarize.length,
      tokensBefore,
      summarize: (signal) =>
        writeSummary({
          ...summaryDeps,
          conv,
          request: {
            previousSummary: conv.summary?.content.summaryText,
            messages: plan.toSummarize,
            targetTokens: plan.targetSummaryTokens,
            focus: options.focus,
            messagesIncluded
          },
          summarizer: options.modelOnly ? 'llm' : options.summarizer,
          onModelFailure: options.type === 'auto' && !options.modelOnly ? 'extractive' : 'throw',
          signal
        }),
      content: {
        messageRange: { firstMessageId: conv.summary?.content.messageRange.firstMessageId ?? first.id, lastMessageId: last.id },
        compressionType: options.type === 'auto' ? 'auto' : 'manual',
        originalTokenCount: (conv.summary?.content.originalTokenCount ?? 0) + totalTokens(plan.toSummarize),
        messagesIncluded,
        strategy: 'rolling',
        restoresSnapshotId: conv.summary?.id ?? null,
        baseSnapshotId: conv.summary?.id ?? null,
        focus: options.focus?.trim() || null,
        retentionTokens: plan.retentionTokens,
        contextTokensBefore: tokensBefore
      },
      warnings: plan.warnings,
      cutoffId: last.id,
      tokensAfterWithoutSummary: conv.total() - conv.summaryTokens - totalTokens(plan.toSummarize),
      span: { firstSeq: first.seq, lastSeq: last.seq, tokens: totalTokens(plan.toSummarize) },
      ...(options.background ? { background: options.background } : {})
    }
  }

  /**
   * The active summary's range again: from the summary it was cascaded from, not the one it replaced.
   * `upgrade`: the model summary that replaces a quick one, as if the quick one had never been
   * (Undo goes back to what was before it).
   */
  async function regenerateRun(conv: Conversation, active: Snapshot, focus?: string, upgrade = false): Promise<RunRequest> {
    const base = cascadeBase(db, active)
    const messages = await usage.engineMessagesInPages(conv.session.id, base?.cutoffSeq ?? 0, active.cutoffSeq)
    await conv.loadHistory()
    const {
      summaryText: _text,
      summarizer: _summarizer,
      warnings: _warnings,
      compressionTimestamp: _t,
      summaryTokenCount: _s,
      contextTokensAfter: _a,
      previousSnapshotId: _p,
      ...kept
    } = active.content
    return {
      conv,
      type: upgrade ? 'auto' : 'regenerate',
      messages: messages.length,
      tokensBefore: upgrade ? active.content.contextTokensBefore : active.content.contextTokensAfter,
      summarize: (signal) =>
        writeSummary({
          ...summaryDeps,
          conv,
          request: {
            previousSummary: base?.content.summaryText,
            messages,
            targetTokens: Math.max(active.tokenCount, planFor(conv, { type: 'manual' }).targetSummaryTokens),
            focus: focus ?? active.content.focus ?? undefined,
            messagesIncluded: active.content.messagesIncluded
          },
          ...(upgrade ? { summarizer: 'llm' as const } : {}),
          onModelFailure: 'throw',
          signal
        }),
      content: {
        ...kept,
        focus: focus?.trim() || active.content.focus,
        restoresSnapshotId: upgrade ? restoresSnapshotId(active.content) : active.id,
        baseSnapshotId: base?.id ?? null
      },
      warnings: [],
      cutoffId: active.messageCutoffId!,
      tokensAfterWithoutSummary: conv.total() - conv.summaryTokens,
      ...(upgrade ? { background: 'replaced' as const } : {})
    }
  }

  const background = createBackgroundSummaries({
    run: (request) => runner.run(request),
    abort: (sessionId) => runner.cancel(sessionId),
    async build(sessionId, quick) {
      const conv = usage.conversation(sessionId)
      // Undone, replaced, or auto-compression turned off since: the model summary is not wanted.
      if (conv.summary?.id !== quick.id || !(conv.session.autoCompress ?? settings.get().autoCompress)) return undefined
      return regenerateRun(conv, quick, undefined, true)
    },
    log,
    retryDelaysMs: deps.backgroundRetryMs
  })

  /** Model summaries apply to the rolling strategy with the model summarizer, when its provider can be reached. */
  const modelSummaries = (conv: Conversation) =>
    settings.get().summarizer === 'llm' && (conv.session.strategy ?? settings.get().strategy) === 'rolling' && providers.status(conv.spec.provider).ready

  const prepared = createPreparedSummaries({
    db,
    clock,
    log,
    conversation: (sessionId) => usage.conversation(sessionId),
    preparePercent(conv, trigger) {
      const s = settings.get()
      if (!(conv.session.autoCompress ?? s.autoCompress) || !modelSummaries(conv) || runner.running(conv.session.id)) return 0
      // A paid model writes ahead only for a chat in use: once its user starts the next message.
      if (trigger === 'reply' && !s.prepareWhenIdle && isPaid(models.spec(conv.spec.provider, summarizationModelOf(settings, conv)))) return 0
      return s.prepareAtPercent
    },
    build: (conv) => rollingRun(conv, { type: 'auto', modelOnly: true }),
    changed: (sessionId) => emit('usage.changed', { sessionId }),
    retryDelaysMs: deps.preparedRetryMs
  })

  /** Plans the run for the chat's strategy and runs it; undefined when there is nothing to do. */
  async function execute(sessionId: string, options: RunOptions): Promise<RunResult | undefined> {
    // A model summary still being written is for a span this run changes: it would only conflict.
    background.cancel(sessionId)
    prepared.discard(sessionId)
    const conv = usage.conversation(sessionId, options.beforeSeq)
    const strategy = conv.session.strategy ?? settings.get().strategy
    let request: RunRequest | undefined
    if (strategy !== 'rolling' && options.summarizer !== 'truncate') request = await strategyRun(conv, strategy, options)
    else {
      // A page at a time, so reading a long history does not hold up replies and requests.
      await conv.loadHistory()
      request = rollingRun(conv, options)
    }
    if (!request) {
      if (options.type === 'auto') return undefined
      throw nothingNew()
    }
    return runner.run(request)
  }

  return {
    async preview(sessionId: string, retentionTokens?: number): Promise<CompressionPreview> {
      const conv = usage.conversation(sessionId)
      await conv.loadHistory()
      const plan = planFor(conv, { type: 'manual', retentionOverride: retentionTokens })
      return {
        totalMessages: conv.historyCount + (conv.summary?.content.messagesIncluded ?? 0),
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
    beforeRequest(
      sessionId: string,
      beforeSeq: number,
      options: { summarizer?: SummarizerKind; waitForModel?: boolean } = {}
    ): Promise<RunResult | undefined> {
      return lock.run(sessionId, async () => {
        const conv = usage.conversation(sessionId, beforeSeq)
        const auto = conv.session.autoCompress ?? settings.get().autoCompress
        if (!auto) return undefined
        // From the chat's totals: the history itself is read only when a compression runs.
        const compressible = conv.summaryTokens + conv.historyTokens - (conv.pending?.tokens ?? 0)
        const contextTokens = conv.calibrate(conv.total())
        const decision = compressionTrigger({ contextTokens, compressibleTokens: compressible, budget: conv.budget, settings: settingsFor() })
        if (!decision.compress) return undefined
        // The send never waits for a model: a quick offline summary goes in now, and the model's
        // replaces it in the background (the rolling strategy; the others are offline already).
        const quick = (options.summarizer ?? 'llm') === 'llm' && modelSummaries(conv) && !options.waitForModel
        // A summary written ahead for this point goes in at once.
        const ready = options.waitForModel ? undefined : prepared.take(conv)
        if (ready) {
          try {
            background.cancel(sessionId)
            return await runner.run(ready)
          } catch (err) {
            log.warn('The prepared summary could not be used; summarizing now', err instanceof Error ? err.message : err)
          }
        }
        try {
          const result = await execute(sessionId, {
            type: 'auto',
            beforeSeq,
            summarizer: quick ? 'extractive' : options.summarizer,
            ...(quick ? { background: 'writing' as const } : {})
          })
          if (result && quick) background.schedule(sessionId, result.snapshot)
          return result
        } catch (err) {
          log.warn('Auto-compression failed; sending without it', err instanceof Error ? err.message : err)
          return undefined
        }
      })
    },

    /** Summarizes the active summary's range again (same base summary, same messages). */
    regenerate(sessionId: string, focus?: string): Promise<RunResult> {
      return lock.run(sessionId, async () => {
        background.cancel(sessionId)
        prepared.discard(sessionId)
        const active = activeSummary(db, sessionId)
        if (!active) throw new AppError('nothing_to_do', 'There is no summary to regenerate.')
        return runner.run(await regenerateRun(usage.conversation(sessionId), active, focus))
      })
    },

    /** Restores the context as it was before the latest summary, exactly. */
    undo(sessionId: string): Promise<{ active: Snapshot | null }> {
      return lock.run(sessionId, async () => {
        background.cancel(sessionId)
        prepared.discard(sessionId)
        const active = activeSummary(db, sessionId)
        if (!active) throw new AppError('nothing_to_do', 'There is no summary to undo.')
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
      const pending = background.pendingFor(sessionId) !== undefined || prepared.state(sessionId) !== undefined
      background.cancel(sessionId)
      prepared.discard(sessionId)
      return { cancelled: runner.cancel(sessionId) || pending }
    },

    /** Waits until the chat's model summary written in the background has landed or given up. */
    backgroundSettled: (sessionId: string) => background.settled(sessionId),

    /** After a reply: writes the next summary ahead once the context passed the preparation point. */
    prepareAhead: (sessionId: string, trigger: PrepareTrigger = 'reply') => prepared.consider(sessionId, trigger),

    preparedState: (sessionId: string) => prepared.state(sessionId),

    close: () => {
      prepared.close()
      return background.close()
    },

    active(sessionId: string): { summary: Snapshot | null; running: boolean } {
      return { summary: activeSummary(db, sessionId) ?? null, running: runner.running(sessionId) }
    },

    snapshots: (sessionId: string) => listSnapshots(db, sessionId),

    /** Marks the last message as the end of a topic (the tiered strategy starts a new one after it). */
    newTopic(sessionId: string): { marked: boolean } {
      const conv = usage.conversation(sessionId)
      const last = conv.newest
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
