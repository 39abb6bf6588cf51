import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { ContextOverflow } from '../../providers/context-overflow'
import type { Session } from '../../../shared/domain/session'
import { readCalibration, writeCalibration } from '../../db/repositories/calibration-repo'
import { blockTotals } from '../../db/repositories/messages/count-blocks-repo'
import {
  findMessages,
  staleCounted,
  storeCounts,
  storeMessageCount
} from '../../db/repositories/messages/messages-repo'
import type { EngineMessage } from '../../engine/types'
import { modelKey, type ModelSpec } from '../../models/catalog'
import { Calibrator } from '../../tokens/calibration'
import { createTokenCounter, type TokenCounter } from '../../tokens/token-counter'
import { refusalLesson } from './refusal-lesson'
import { recountOnThread, type CountUpdate, type Recounted } from './recount-on-thread'
import { createConversationReader } from './conversation'
import { countersFor, countTextFor } from './head-counter'
import { countMessage, localCounterFor } from '../../tokens/message-tokens'
import { resolveChatWindow } from '../../../shared/domain/chat-settings'

/** Messages recounted between two turns of the event loop after a model switch. */
const RECOUNT_BATCH = 50
/** The longest a recount counts before giving the event loop back (DESIGN §12: stalls under 50 ms). */
const RECOUNT_SLICE_MS = 10
/** Messages a recount hands the summary thread at a time (one job, one message each way). */
const THREAD_BATCH = 500
/** Batches handed to the summary thread before the first of them is stored. */
const THREAD_JOBS_AHEAD = 2
/** Counts stored per transaction (and turn of the event loop) while the thread counts on. */
const STORE_SLICE = 250
/** Gives the event loop back: what waits (a ping, the meter's request) is answered first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
/** How often the meter hears of a recount's progress. */
const RECOUNT_REPORT_MS = 250
import type { ModelsService } from '../settings/models-service'
import type { ProvidersService } from '../settings/providers-service'
import type { ServiceDeps } from '../service-deps'
import type { SessionsService } from '../sessions/sessions-service'
import type { SettingsService } from '../settings/settings-service'
import { chatCost } from './chat-cost'

export type { Conversation } from './conversation'

/** One chat's recount for its new model: what both ways of counting share. */
interface RecountRun {
  sessionId: string
  spec: ModelSpec
  counters: [string, string]
  /** False once the chat counts with another counter, or the app closes. */
  goesOn(): boolean
  /** Stores counts, STORE_SLICE per transaction and turn; `messages` of the recount are done. */
  store(counts: CountUpdate[], messages: number): Promise<void>
}

export type UsageService = ReturnType<typeof createUsageService>

/**
 * Token accounting of every chat (DESIGN §4): each message is counted once when written and the
 * count stored with its counter; the context meter sums stored counts and never re-tokenizes
 * history, except once, in the background, after a switch to a model with another tokenizer.
 */
export function createUsageService(
  deps: ServiceDeps & {
    sessions: SessionsService
    settings: SettingsService
    providers: ProvidersService
    models: ModelsService
    fetch?: typeof fetch
    countTimeoutMs?: number
    /** A read-only process uses local counts for stale messages and leaves storing them to the owner. */
    readOnly?: boolean
    /**
     * Counts messages for a model off the main thread, reading them by id there (the summary
     * thread); undefined where it cannot (in memory): a recount then counts here, a slice at a time.
     */
    recountOffThread?: (spec: ModelSpec, ids: string[]) => Promise<Recounted[]> | undefined
  }
) {
  const { db, emit, log, sessions, settings, providers, models } = deps
  const calibrator = new Calibrator(readCalibration(db))
  /** Chats whose history is being recounted for their model: how many of how many are done. */
  const recounting = new Map<string, { done: number; total: number }>()
  /** Messages of each chat whose count is being stored now (messageWritten). */
  const countsInFlight = new Map<string, number>()
  let disposed = false

  // Remote countTokens endpoints follow the configured keys; rebuild the counter when they change.
  let counter: TokenCounter | undefined
  let counterKey = ''
  function tokenCounter(): TokenCounter {
    const anthropic = providers.connection('anthropic')
    const google = providers.connection('google')
    const remote = {
      ...(anthropic.apiKey
        ? { anthropic: { apiKey: anthropic.apiKey, baseURL: anthropic.baseURL ?? 'https://api.anthropic.com/v1' } }
        : {}),
      ...(google.apiKey
        ? {
            google: {
              apiKey: google.apiKey,
              baseURL: google.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta'
            }
          }
        : {})
    }
    const key = JSON.stringify(remote)
    if (!counter || key !== counterKey) {
      counter?.dispose()
      counter = createTokenCounter({
        remote,
        fetch: deps.fetch,
        timeoutMs: deps.countTimeoutMs,
        log,
        calibration: calibrator
      })
      counterKey = key
    }
    return counter
  }

  /** The chat's model, with the window and reply reserve this chat sets for itself (a replay, a local server's smaller load). */
  function specOf(session: Session): ModelSpec & { known: boolean } {
    const { provider, modelId } = settings.forChat(session)
    const spec = models.spec(provider, modelId)
    if (session.contextWindow === null && session.maxOutput === null) return spec
    const { contextWindow, maxOutput, own } = resolveChatWindow(session, spec)
    // A window the chat sets is known, whatever the model's own is.
    return { ...spec, contextWindow, maxOutput, known: spec.known || own }
  }

  async function countAndStore(message: ChatMessage, spec: ModelSpec): Promise<void> {
    const result = await tokenCounter().countMessage({ role: message.role, parts: message.parts }, spec)
    // Written with its count (a long message: rewriting its row for the count took ~10 ms).
    if (message.tokenCount === result.tokens && message.tokenCounter === result.counter) return
    storeMessageCount(db, message.id, { tokens: result.tokens, counter: result.counter })
  }

  function recountShare(sessionId: string): number | null {
    const progress = recounting.get(sessionId)
    return progress ? Math.min(1, progress.done / Math.max(1, progress.total)) : null
  }

  /**
   * Recounts, once and off the request path, the messages counted for another model: newest first,
   * in batches that give the event loop back between them, reporting progress to the meter.
   */
  function recount(session: Session, spec: ModelSpec): void {
    if (recounting.has(session.id)) return
    const counters = countersFor(spec)
    // From the chat's count blocks (a COUNT over every message took ~10 ms at 100,000 of them).
    const total = blockTotals(db, session.id, 0, Infinity)
      .filter((g) => g.counter === null || !counters.includes(g.counter))
      .reduce((sum, g) => sum + g.messages, 0)
    const progress = { done: 0, total }
    if (progress.total === 0) return
    recounting.set(session.id, progress)
    emit('usage.changed', { sessionId: session.id })
    let lastReport = deps.clock.now()
    const job: RecountRun = {
      sessionId: session.id,
      spec,
      counters,
      // The chat's model may have changed again: go on only while it counts with this counter.
      goesOn: () => !disposed && localCounterFor(specOf(sessions.get(session.id))) === counters[0],
      async store(counts, messages) {
        // A few hundred rows per turn: the thread counts the next batch meanwhile, so this loop stores
        // twice as often as when the two took turns, and a ping waited behind 500-row transactions
        // (11–22 µs a row in the profile, more on two busy cores).
        for (let i = 0; i < counts.length; i += STORE_SLICE) {
          if (i > 0) await nextTurn()
          if (disposed) return
          db.transaction((tx) => storeCounts(tx, session.id, counts.slice(i, i + STORE_SLICE)))
        }
        progress.done = Math.min(progress.total, progress.done + messages)
        if (deps.clock.now() - lastReport >= RECOUNT_REPORT_MS) {
          lastReport = deps.clock.now()
          emit('usage.changed', { sessionId: session.id })
        }
      }
    }
    void (async () => {
      const offThread = deps.recountOffThread
      // On the summary thread where it can read the database, else (or from where it failed) here.
      const from = offThread
        ? await recountOnThread({
            read: (before) => staleCounted(db, session.id, counters, THREAD_BATCH, before),
            count: (ids) => offThread(spec, ids),
            store: job.store,
            goesOn: job.goesOn,
            ahead: THREAD_JOBS_AHEAD,
            failed: (err) => log.warn('Recounting on the summary thread failed; counting here', err),
            yieldTurn: nextTurn
          })
        : Number.POSITIVE_INFINITY
      if (from !== undefined) await recountHere(job, from)
    })()
      .catch((err: unknown) => log.warn('Recounting tokens failed', err))
      .finally(() => {
        recounting.delete(session.id)
        emit('usage.changed', { sessionId: session.id })
      })
  }

  /** The recount on this thread, a slice of a few milliseconds per turn (where no thread can read the database). */
  async function recountHere(job: RecountRun, from: number): Promise<void> {
    let before = from
    while (job.goesOn()) {
      const batch = staleCounted(db, job.sessionId, job.counters, RECOUNT_BATCH, before)
      if (batch.length === 0) break
      // Local counts (the model's tokenizer or its calibrated estimate): a provider's countTokens
      // endpoint is for new messages, not for thousands of requests after a switch.
      const rows = findMessages(
        db,
        batch.map((b) => b.id)
      )
      const started = performance.now()
      const counts: CountUpdate[] = []
      for (const b of batch) {
        before = b.seq
        const message = rows.get(b.id)
        if (!message) continue
        const counted = countMessage({ role: message.role, parts: message.parts }, job.spec)
        counts.push({
          id: message.id,
          from: { counter: message.tokenCounter, tokens: message.tokenCount },
          to: { counter: counted.counter, tokens: counted.tokens }
        })
        // A slice of counting per turn: 50 long messages could hold the loop for tens of ms.
        if (performance.now() - started >= RECOUNT_SLICE_MS) break
      }
      await job.store(counts, counts.length)
      await nextTurn()
    }
  }

  const reader = createConversationReader({
    db,
    session: (sessionId) => sessions.get(sessionId),
    spec: specOf,
    settings: () => settings.get(),
    calibration: (spec) => calibrator.calibration(modelKey(spec.provider, spec.id)),
    // A read-only process uses local counts for stale messages and leaves storing them to the owner.
    // A message whose count is being stored (a reply just written) reads as never counted until it
    // lands: that is no reason for a recount (one started after every reply, and woke the thread).
    onStale: (session, spec) => {
      if (!deps.readOnly && !countsInFlight.has(session.id)) recount(session, spec)
    }
  })
  const conversation = reader.conversation

  /** Messages in (afterSeq, uptoSeq] as the engine sees them, counted for the chat's model. */
  function engineMessages(sessionId: string, afterSeq: number, uptoSeq: number): EngineMessage[] {
    const session = sessions.get(sessionId)
    return reader.fullHistory(session, specOf(session), afterSeq, uptoSeq + 1).messages
  }

  /** The same, read a page at a time with the event loop free between pages (for a compression). */
  async function engineMessagesInPages(sessionId: string, afterSeq: number, uptoSeq: number): Promise<EngineMessage[]> {
    const session = sessions.get(sessionId)
    return (await reader.fullHistoryInPages(session, specOf(session), afterSeq, uptoSeq + 1)).messages
  }

  return {
    conversation,
    engineMessages,
    engineMessagesInPages,
    countText: (session: Session, text: string) => countTextFor(specOf(session), 'user', text),
    /** A quick estimate of a text (a draft being typed) for this model, calibrated. */
    estimateText: (text: string, spec: ModelSpec) => tokenCounter().estimateText(text, spec),
    /** How far the chat's recount for its model is (0–1), or null when none is running. */
    recountState: (sessionId: string): number | null => recountShare(sessionId),
    /** What the chat's requests took and cost (the meter's details). */
    cost: (sessionId: string) => chatCost(db, sessionId, specOf(sessions.get(sessionId))),
    /** What a message about to be written counts for the chat's model (stored with it: countAndStore). */
    countOf: async (parts: ChatMessage['parts'], session: Session): Promise<{ tokens: number; counter: string }> => {
      const { tokens, counter } = await tokenCounter().countMessage({ role: 'user', parts }, specOf(session))
      return { tokens, counter }
    },
    /** Counts a message just written (the user's, or a finished reply) and stores the count. */
    messageWritten(message: ChatMessage, session: Session): Promise<void> {
      if (message.status === 'streaming' || message.parts.length === 0) return Promise.resolve()
      reader.hold(message)
      countsInFlight.set(session.id, (countsInFlight.get(session.id) ?? 0) + 1)
      return countAndStore(message, specOf(session))
        .catch((err: unknown) => log.warn('Counting a message failed', err))
        .finally(() => {
          const left = (countsInFlight.get(session.id) ?? 1) - 1
          if (left > 0) countsInFlight.set(session.id, left)
          else countsInFlight.delete(session.id)
          emit('usage.changed', { sessionId: session.id })
        })
    },

    /**
     * Provider-reported input tokens calibrate the local estimate of the same request: `sentTokens`,
     * the counted tokens of the request that was sent (what it carried, recalled passages included).
     */
    replyFinished(reply: ChatMessage, session: Session, sentTokens?: number): void {
      if (reply.inputTokens === null) return
      const spec = specOf(session)
      const estimated = sentTokens ?? conversation(session.id, reply.seq).total()
      const key = modelKey(spec.provider, spec.id)
      calibrator.observe(key, estimated, reply.inputTokens)
      const entry = calibrator.toJSON()[key]
      if (entry) writeCalibration(db, key, entry, deps.clock.now())
    },

    /**
     * The provider refused the request of `sentTokens` counted tokens as longer than the model's
     * window: the calibration believes it at once (its own count where it said it, else just past
     * what the window leaves for input, with a tenth to spare). True when the next request is built
     * otherwise (the counts are estimates), so asking again can succeed.
     */
    requestRefused(session: Session, sentTokens: number, overflow: ContextOverflow): boolean {
      const spec = specOf(session)
      const c = conversation(session.id)
      const { budget } = c
      const lesson = refusalLesson(
        {
          sentTokens,
          sentProviderTokens: c.cost(sentTokens),
          window: budget.window,
          reservedOutput: budget.reservedOutput,
          overflow
        },
        spec.label
      )
      // The server's window is smaller than the one set: the chat uses the server's, and says so.
      if (lesson.window !== undefined) {
        sessions.update(session.id, {
          contextWindow: lesson.window,
          ...(session.maxOutput !== null && session.maxOutput > lesson.window / 2 ? { maxOutput: null } : {})
        })
        log.warn(
          `${spec.provider}/${spec.id} refused a request: chat ${session.id} now uses a ${lesson.window}-token window`
        )
        emit('chat.notice', { sessionId: session.id, text: lesson.note! })
      }
      const calibrate = !budget.exact && lesson.providerInput !== undefined
      if (calibrate) {
        const key = modelKey(spec.provider, spec.id)
        calibrator.refused(key, sentTokens, lesson.providerInput!)
        const entry = calibrator.toJSON()[key]
        if (entry) writeCalibration(db, key, entry, deps.clock.now())
      }
      emit('usage.changed', { sessionId: session.id })
      return calibrate || lesson.window !== undefined
    },

    /** Counts still in flight (tests, shutdown). */
    dispose(): void {
      disposed = true
      counter?.dispose()
    }
  }
}
