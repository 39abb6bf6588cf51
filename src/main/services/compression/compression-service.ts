import type { CompressionPreview } from '../../../shared/contract'
import { restoresSnapshotId, type Snapshot, type SummarizerKind } from '../../../shared/domain/snapshot'
import { activeSummary, findSnapshot, listSnapshots, setSnapshotStatus } from '../../db/repositories/snapshots-repo'
import { compressionTrigger } from '../../engine/trigger'
import { AppError } from '../../../shared/app-error'
import type { ServiceDeps } from '../service-deps'
import { createKeyedLock } from '../session-lock'
import { markTopicEnd } from './topic-boundary'
import { isPaid } from './summaries/summary-cost'
import { summarizationModelOf, summaryEstimate } from './summaries/write-summary'
import { createBackgroundSummaries } from './summaries/background-summaries'
import { BACKLOG_START_MS } from './summaries/backlog'
import { createPreparedSummaries, type PrepareTrigger } from './summaries/prepared-summaries'
import { createCompressionRunner, type RunRequest, type RunResult } from './compression-run'
import { createRunRequests, type RunOptions, type RunRequestDeps } from './compression-requests'
import type { Conversation } from '../conversation/conversation'
import { withDraft } from '../conversation/draft-conversation'
import { cacheWentCold } from './cache-went-cold'
import { createSummaryDrafts } from './summary-drafts'
import { createDraftActions } from './draft-actions'
import { unstoredSummary } from './unstored-summary'

export type { RunOptions, RunResult }

export type CompressionService = ReturnType<typeof createCompressionService>

/**
 * The imperative shell around the pure engine (DESIGN §5): plans, summarizes, checks the result
 * fits, writes the snapshot and its status changes in one transaction, and reports through events.
 * One compression per chat at a time; a reply waits for a running one.
 */
export function createCompressionService(
  deps: ServiceDeps &
    RunRequestDeps & {
      /** Waits before each retry of a model summary written in the background. */
      backgroundRetryMs?: readonly number[]
      /** Waits before a failed summary written ahead is tried again. */
      preparedRetryMs?: readonly number[]
    }
) {
  const { db, clock, ids, emit, log, usage, settings, providers, models } = deps
  const lock = createKeyedLock()

  const runner = createCompressionRunner(deps)
  const { settingsFor, planFor, strategyRun, rollingRun, backlogRun, regenerateRun } = createRunRequests(deps)
  /** Whether the chat's context is past its threshold now (FR-1.2), from its totals. */
  const due = (conv: Conversation) =>
    compressionTrigger({
      contextTokens: conv.total(),
      compressibleTokens: conv.compressibleTokens(),
      budget: conv.budget,
      settings: settingsFor()
    })

  const nothingNew = () => new AppError('nothing_to_do', 'There is nothing new to summarize yet.')
  const drafts = createSummaryDrafts({ db, clock, ids, emit, conversation: (id) => usage.conversation(id) })
  /**
   * Review before the swap: a summary waits as a draft until the user accepts it. A quick summary
   * still goes in at the threshold, but says nothing of a model summary replacing it: that one
   * waits as a draft too.
   */
  const reviewing = (conv: Conversation) => settings.forChat(conv.session).reviewSummaries
  const draftActions = createDraftActions({
    db,
    lock,
    drafts,
    conversation: (id) => usage.conversation(id),
    run: (request, options) => runner.run(request, options),
    regenerateRun,
    stopPending(sessionId) {
      background.cancel(sessionId)
      prepared.discard(sessionId)
    }
  })
  const background = createBackgroundSummaries({
    // Reviewing, the model's summary for the quick one's span waits as a draft instead of replacing it.
    run: (request) => runner.run(request, { draft: reviewing(request.conv) }),
    abort: (sessionId) => runner.cancel(sessionId),
    async build(sessionId, quick) {
      const conv = usage.conversation(sessionId)
      // Undone, replaced, or auto-compression turned off since: the model summary is not wanted.
      if (conv.summary?.id !== quick.id || !settings.forChat(conv.session).autoCompress) return undefined
      // A draft the user has not decided on yet stays: it is not replaced behind their back.
      if (reviewing(conv) && drafts.pending(sessionId)) return undefined
      // A backlog's quick summary is followed by the whole span's offline summary (a model summary
      // of an imported history would be hundreds of requests); later compressions cascade from it.
      return regenerateRun(conv, quick, undefined, quick.content.backlog ? 'offline' : true)
    },
    log,
    retryDelaysMs: deps.backgroundRetryMs
  })

  /**
   * The summary that replaces a quick one, written in the background. A backlog's reads the whole
   * history a page at a time on this thread: it starts once the reply the send is waiting for is
   * under way, not against it.
   */
  const scheduleBackground = (sessionId: string, quick: Snapshot) =>
    background.schedule(sessionId, quick, quick.content.backlog ? BACKLOG_START_MS : 0)

  /** Model summaries apply to the rolling strategy with the model summarizer, when its provider can be reached. */
  const modelSummaries = (conv: Conversation) =>
    settings.forChat(conv.session).summarizer === 'llm' &&
    settings.forChat(conv.session).strategy === 'rolling' &&
    providers.status(conv.spec.provider).ready

  const prepared = createPreparedSummaries({
    db,
    clock,
    log,
    conversation: (sessionId) => usage.conversation(sessionId),
    preparePercent(conv, trigger) {
      const s = settings.get()
      if (!settings.forChat(conv.session).autoCompress || !modelSummaries(conv) || runner.running(conv.session.id))
        return 0
      // One draft at a time: the user decides on it before another is written.
      if (reviewing(conv) && drafts.pending(conv.session.id)) return 0
      // A paid model writes ahead only for a chat in use: once its user starts the next message.
      if (
        trigger === 'reply' &&
        !s.prepareWhenIdle &&
        isPaid(models.spec(conv.spec.provider, summarizationModelOf(settings, conv)))
      )
        return 0
      return s.prepareAtPercent
    },
    build: (conv) => rollingRun(conv, { type: 'auto', modelOnly: true }),
    keep(sessionId, request, written) {
      if (!reviewing(request.conv)) return false
      runner.commitWritten(request, written, [...request.warnings, ...written.warnings], true)
      emit('compression.changed', { sessionId })
      return true
    },
    changed: (sessionId) => emit('usage.changed', { sessionId }),
    retryDelaysMs: deps.preparedRetryMs
  })

  /** A summary written ahead, swapped in now (undefined when there is none, or it could not be used). */
  async function usePrepared(conv: Conversation): Promise<RunResult | undefined> {
    const ready = prepared.take(conv)
    if (!ready) return undefined
    try {
      background.cancel(conv.session.id)
      return await runner.run(ready)
    } catch (err) {
      log.warn('The prepared summary could not be used', err instanceof Error ? err.message : err)
      return undefined
    }
  }

  /**
   * The compression a send past the threshold left for after it: the same auto run (quick offline
   * summary, the model's in the background), unless the context changed meanwhile.
   */
  function afterSend(sessionId: string, beforeSeq: number): Promise<void> {
    return lock.run(sessionId, async () => {
      const conv = usage.conversation(sessionId, beforeSeq)
      if (!settings.forChat(conv.session).autoCompress) return
      if (!due(conv).compress) return
      const ready = reviewing(conv) ? undefined : prepared.take(conv)
      try {
        if (ready) {
          background.cancel(sessionId)
          await runner.run(ready)
          return
        }
        const quick = modelSummaries(conv)
        const result = await execute(sessionId, {
          type: 'auto',
          beforeSeq,
          summarizer: quick ? 'extractive' : undefined,
          ...(quick && !reviewing(conv) ? { background: 'writing' as const } : {})
        })
        if (result && quick) scheduleBackground(sessionId, result.snapshot)
      } catch (err) {
        log.warn(
          'Auto-compression after a send failed; the next send tries again',
          err instanceof Error ? err.message : err
        )
      }
    })
  }

  /** The run the chat's strategy asks for; undefined when there is nothing to summarize. */
  async function requestFor(conv: Conversation, options: RunOptions): Promise<RunRequest | undefined> {
    const { strategy } = settings.forChat(conv.session)
    if (strategy !== 'rolling' && options.summarizer !== 'truncate') return strategyRun(conv, strategy, options)
    // A backlog reads only its newest part; any other history a page at a time, so reading a
    // long one does not hold up replies and requests.
    const backlog = await backlogRun(conv, options)
    if (backlog) return backlog
    await conv.loadHistory()
    return rollingRun(conv, options)
  }

  /** Plans the run for the chat's strategy and runs it; undefined when there is nothing to do. */
  async function execute(sessionId: string, options: RunOptions): Promise<RunResult | undefined> {
    // A model summary still being written is for a span this run changes: it would only conflict.
    background.cancel(sessionId)
    prepared.discard(sessionId)
    const conv = usage.conversation(sessionId, options.beforeSeq)
    const request = await requestFor(conv, options)
    if (!request) {
      if (options.type === 'auto') return undefined
      throw nothingNew()
    }
    // The user pressed Summarize: reviewing, what it wrote waits as a draft (auto runs never wait).
    const draft = options.type === 'manual' && reviewing(conv)
    const result = await runner.run(request, { draft })
    // Older messages it only announces: their summary is written in the background, whatever ran.
    if (!draft && result.snapshot.content.backlog) scheduleBackground(sessionId, result.snapshot)
    return result
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
        tokensBefore: conv.contextTokens(),
        estimatedTokensAfter: conv.cost(plan.estimatedTokensAfter),
        targetSummaryTokens: plan.targetSummaryTokens,
        retentionTokens: plan.retentionTokens,
        belowMinimum: plan.belowMinimum,
        minimumTokens: settings.get().minimumTokens,
        summaryExists: !!conv.summary,
        warnings: plan.warnings,
        ...summaryEstimate(deps, conv, {
          previousSummary: conv.summary?.content.summaryText,
          messages: plan.toSummarize,
          targetTokens: plan.targetSummaryTokens
        })
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
        if (!settings.forChat(conv.session).autoCompress) return undefined
        // From the chat's totals: the history itself is read only when a compression runs.
        const decision = due(conv)
        if (!decision.compress) {
          // Older messages still pending from before the app last closed: their summary is written now.
          if (conv.summary?.content.backlog && background.pendingFor(sessionId)?.id !== conv.summary.id)
            scheduleBackground(sessionId, conv.summary)
          // Idle past the provider's cache lifetime, the request is cold anyway: a summary written
          // ahead goes in now rather than at the threshold, where it would make a warm request cold.
          const ahead = prepared.state(sessionId)?.state === 'ready' && !reviewing(conv)
          return ahead && cacheWentCold(db, conv, beforeSeq, clock.now()) ? await usePrepared(conv) : undefined
        }
        // The send never waits for a model: a quick offline summary goes in now, and the model's
        // replaces it in the background (the rolling strategy; the others are offline already).
        const quick = (options.summarizer ?? 'llm') === 'llm' && modelSummaries(conv) && !options.waitForModel
        // A summary written ahead for this point goes in at once.
        // Reviewing, a prepared summary waits as a draft: the send takes the quick path instead.
        if (!options.waitForModel && !reviewing(conv)) {
          const swapped = await usePrepared(conv)
          if (swapped) return swapped
        }
        // Past the threshold but still within the usable budget, nothing needs to leave this request:
        // it goes out as it is, and the summary is written right after it, for the next one (a send
        // waits only when its request would not fit: then the summary must come first).
        if (decision.reason === 'over-threshold' && !options.waitForModel && options.summarizer === undefined) {
          setImmediate(() => void afterSend(sessionId, beforeSeq))
          return undefined
        }
        deps.extractive?.warm() // the summary thread (ended if idle) starts while the history is read
        try {
          const result = await execute(sessionId, {
            type: 'auto',
            beforeSeq,
            summarizer: quick ? 'extractive' : options.summarizer,
            ...(quick && !reviewing(conv) ? { background: 'writing' as const } : {})
          })
          if (result && quick) scheduleBackground(sessionId, result.snapshot)
          return result
        } catch (err) {
          log.warn('Auto-compression failed; sending without it', err instanceof Error ? err.message : err)
          return undefined
        }
      })
    },

    /**
     * The summary the next send would write first, when one is due, computed and not stored: what
     * `distill context` shows the model would receive. Offline (the quick summary a send uses when
     * no model summary is ready); undefined when nothing is due.
     */
    async nextSummary(sessionId: string, draft: string): Promise<Snapshot | undefined> {
      const stored = usage.conversation(sessionId)
      const conv = draft.trim() ? withDraft(stored, draft) : stored
      if (!settings.forChat(conv.session).autoCompress || !due(conv).compress) return undefined
      const beforeSeq = conv.pending ? conv.pending.seq : undefined
      const request = await requestFor(conv, { type: 'auto', beforeSeq, summarizer: 'extractive' })
      if (!request) return undefined
      const written = await request.summarize(new AbortController().signal)
      return unstoredSummary(db, conv, request, written, clock.now())
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

    /**
     * After a reply: a reply that took the context past the threshold is summarized now, not at the
     * next send (the meter would sit red meanwhile; the next request is cold either way, so the
     * cache loses nothing); otherwise the next summary may be written ahead.
     */
    afterReply(sessionId: string): void {
      const conv = usage.conversation(sessionId)
      if (settings.forChat(conv.session).autoCompress && due(conv).compress)
        void afterSend(sessionId, Number.MAX_SAFE_INTEGER)
      else prepared.consider(sessionId, 'reply')
    },

    preparedState: (sessionId: string) => prepared.state(sessionId),

    close: () => {
      prepared.close()
      return background.close()
    },

    active(sessionId: string) {
      return {
        summary: activeSummary(db, sessionId) ?? null,
        running: runner.running(sessionId),
        draft: drafts.view(sessionId)
      }
    },

    ...draftActions,

    snapshots: (sessionId: string) => listSnapshots(db, sessionId),

    /** Marks the last message as the end of a topic (the tiered strategy starts a new one after it). */
    newTopic: (sessionId: string) => markTopicEnd(deps, sessionId, usage.conversation(sessionId).newest?.id),

    /** Waits for the chat's queued work (a reply calls this before it streams). */
    idle: (sessionId: string) => lock.run(sessionId, async () => undefined)
  }
}
