import type { CompressionReport } from '../../../shared/contract'
import type { RunType, Snapshot, SummarizerKind, SummaryContent } from '../../../shared/domain/snapshot'
import type { Tx } from '../../db/client'
import { activeSummary, findSnapshot, insertSummary, setSnapshotStatus } from '../../db/repositories/snapshots-repo'
import { AppError } from '../../../shared/app-error'
import type { Conversation } from '../conversation/conversation'
import type { ServiceDeps } from '../service-deps'
import { cancelledError, type WrittenSummary } from './summaries/write-summary'
import { withUserNotes } from '../../../shared/domain/user-notes'
import { deleteDrafts } from '../../db/repositories/summary-drafts-repo'

export interface RunResult {
  snapshot: Snapshot
  report: CompressionReport
}

/** How a compression run is asked for (compression-requests.ts plans it). */
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

/** What a run writes besides the summary itself and what the commit measures. */
export type RunContent = Omit<
  SummaryContent,
  'summaryText' | 'summarizer' | 'warnings' | 'compressionTimestamp' | 'summaryTokenCount' | 'contextTokensAfter'
>

/** One compression as every kind of run describes it: the flow is the same for all of them. */
export interface RunRequest {
  conv: Conversation
  type: RunType
  /** How many messages the new summary is made from (besides a previous summary). */
  messages: number
  /** Context tokens of the next request before the run (the conversation's `contextTokens`). */
  tokensBefore: number
  /** Writes the summary text; aborted by Cancel. */
  summarize(signal: AbortSignal): Promise<WrittenSummary> | WrittenSummary
  content: RunContent
  /** The plan's own warnings; the summarizer's are added after them. */
  warnings: readonly string[]
  cutoffId: string
  /** Counted tokens of the history the new summary replaces (besides the active summary, which it always replaces). */
  coveredTokens: number
  /** More rows written in the same transaction (the tiered strategy's topics and bulks). */
  extra?: (tx: Tx, snapshotId: string) => void
  /**
   * A quick summary a model summary will replace ('writing'), that replacement ('replaced'), or a
   * summary written ahead and swapped in at the threshold ('prepared').
   */
  background?: 'writing' | 'replaced' | 'prepared'
  /** The whole history's summary replacing a backlog's quick one: how many older messages it adds. */
  backlogDone?: number
  /** The messages the new summary covers (besides a previous summary): seq span and stored tokens. */
  span?: { firstSeq: number; lastSeq: number; tokens: number }
}

/**
 * Runs compressions: begin (event, cancellable), summarize, commit the snapshot and the status of
 * the one it replaces atomically, report. One flow for auto, manual, regenerate and the strategies.
 */
/** The marker a text cut in the middle carries (engine/truncate.ts). */
const CUT_MARKER = /\[\.\.\.[\d,]+\.\.\.\]/g

export function createCompressionRunner(deps: ServiceDeps) {
  const { db, clock, ids, emit, log } = deps
  const running = new Map<string, AbortController>()

  /**
   * Writes the summary as the active one, or as the chat's draft (`draft`: it replaces nothing
   * until the user accepts it, and a newer draft replaces the older).
   */
  function commit(request: RunRequest, written: WrittenSummary, warnings: string[], draft = false): Snapshot {
    const { conv } = request
    // The user's notes of the summary it cascades from go with it, verbatim (an edit is all the user's).
    const text = request.content.editedByUser ? written.text : withUserNotes(written.text, request.content.userNotes)
    // A summary that says nothing (only a cut marker left, as when a window shrank below its pins)
    // would replace the messages it covers with nothing: it is not written.
    const markerless = text.replace(CUT_MARKER, '')
    if (markerless.length < text.length && !/[\p{L}\p{N}]/u.test(markerless)) {
      throw new AppError(
        'internal',
        'The summary came out empty, so it was not written; the messages stay as they are.'
      )
    }
    const summaryTokens = conv.summaryTokensOf(text)
    const id = ids()
    db.transaction((tx) => {
      if (draft) deleteDrafts(tx, conv.session.id)
      else {
        const current = activeSummary(tx, conv.session.id)
        if ((current?.id ?? null) !== (conv.summary?.id ?? null)) {
          throw new AppError('conflict', 'The summary changed while this one was being written. Try again.')
        }
        if (current) setSnapshotStatus(tx, current.id, 'superseded')
      }
      insertSummary(tx, {
        id,
        sessionId: conv.session.id,
        status: draft ? 'draft' : 'active',
        content: {
          ...request.content,
          summaryText: text,
          summarizer: written.summarizer,
          warnings,
          // This run's own request only (a regenerated summary's content starts from the one it replaces).
          modelUsage: written.usage ? { ...written.usage, costUsd: written.costUsd ?? null } : undefined,
          compressionTimestamp: new Date(clock.now()).toISOString(),
          summaryTokenCount: summaryTokens,
          contextTokensAfter: conv.cost(conv.totalAfter(request.coveredTokens, summaryTokens, request.cutoffId))
        },
        messageCutoffId: request.cutoffId,
        tokenCount: summaryTokens,
        createdAt: clock.now()
      })
      request.extra?.(tx, id)
    })
    return findSnapshot(db, id)!
  }

  /** A failed run: reported as an event, returned as the error to throw (internal ones logged). */
  function failed(sessionId: string, type: RunType, err: unknown): AppError {
    const error = err instanceof AppError ? err : new AppError('internal', 'The summary could not be written.')
    if (!(err instanceof AppError)) log.error('Compression failed', err)
    emit('compression.failed', { sessionId, type, code: error.code, message: error.message })
    return error
  }

  async function run(request: RunRequest, options: { draft?: boolean } = {}): Promise<RunResult> {
    const sessionId = request.conv.session.id
    const controller = new AbortController()
    running.set(sessionId, controller)
    emit('compression.started', { sessionId, type: request.type, messages: request.messages })
    try {
      const written = await request.summarize(controller.signal)
      if (controller.signal.aborted) throw cancelledError()
      const warnings = [...request.warnings, ...written.warnings]
      const snapshot = commit(request, written, warnings, options.draft)
      const report: CompressionReport = {
        type: request.type === 'auto' ? 'auto' : 'manual',
        messagesSummarized: request.messages,
        tokensBefore: request.tokensBefore,
        tokensAfter: snapshot.content.contextTokensAfter,
        summaryPreview: snapshot.content.summaryText.slice(0, 200),
        summarizer: written.summarizer,
        fellBack: written.fellBack,
        warnings,
        ...(request.background ? { background: request.background } : {}),
        ...(request.content.backlog
          ? { backlog: { messages: request.content.backlog.messages, state: 'pending' as const } }
          : request.backlogDone
            ? { backlog: { messages: request.backlogDone, state: 'done' as const } }
            : {}),
        ...(written.costUsd != null ? { costUsd: written.costUsd } : {}),
        ...(options.draft ? { draft: true } : {})
      }
      emit('compression.done', { sessionId, snapshot, report })
      if (!options.draft) emit('usage.changed', { sessionId })
      return { snapshot, report }
    } catch (err) {
      throw failed(sessionId, request.type, controller.signal.aborted ? cancelledError() : err)
    } finally {
      // A run started after this one was cancelled owns the entry now.
      if (running.get(sessionId) === controller) running.delete(sessionId)
    }
  }

  return {
    run,
    /** Stores a summary already written (one prepared ahead, kept as a draft for review). */
    commitWritten: commit,
    running: (sessionId: string) => running.has(sessionId),
    /** Aborts the chat's running summary; the run then ends as cancelled and writes nothing. */
    cancel(sessionId: string): boolean {
      const controller = running.get(sessionId)
      controller?.abort()
      return !!controller
    }
  }
}
