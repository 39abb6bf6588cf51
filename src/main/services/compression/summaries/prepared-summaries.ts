import type { Db } from '../../../db/client'
import { lowestTouchedSince, writeMark, type WriteMark } from '../../../db/repositories/write-generation'
import type { RunRequest } from '../compression-run'
import type { Conversation } from '../../conversation/conversation'
import type { Clock, Logger } from '../../service-deps'
import type { WrittenSummary } from './write-summary'

/** What made a chat consider preparing: a reply that finished, or the user typing the next message. */
export type PrepareTrigger = 'reply' | 'typing'

/** What the meter and the inspector show of a summary written ahead. */
export interface PreparedSummaryState {
  state: 'writing' | 'ready'
  /** Messages it covers, and their seq span. */
  messages: number
  firstSeq: number
  lastSeq: number
  /** Tokens of the summary as a request carries it, once written. */
  tokens: number | null
  /** About what writing it cost, where the model's prices are known. */
  costUsd: number | null
}

export interface PreparedSummariesDeps {
  db: Db
  clock: Clock
  log: Logger
  /** The chat as its next request sees it. */
  conversation(sessionId: string): Conversation
  /** Whether a summary should be prepared for this chat at all (auto, model summarizer, rolling, provider ready) and from what share of the threshold. */
  preparePercent(conv: Conversation, trigger: PrepareTrigger): number
  /** The model summary the chat's next auto-compression would write now (the rolling strategy's plan). */
  build(conv: Conversation): RunRequest | undefined
  /**
   * A summary just written: true when the chat keeps it elsewhere (as a draft for the user's
   * review), so it is no longer this module's to swap in.
   */
  keep?(sessionId: string, request: RunRequest, written: WrittenSummary): boolean
  /** The meter changed (writing began, ended or was discarded). */
  changed(sessionId: string): void
  /** Waits after each failed preparation (FR-5.1.1); it is tried again on a later reply. */
  retryDelaysMs?: readonly number[]
}

interface Entry {
  baseId: string | null
  mark: WriteMark
  request: RunRequest
  controller: AbortController
  written?: WrittenSummary
  tokens: number | null
}

const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000]

/**
 * Summaries prepared ahead (Cline's approach): once the context passes a preparation point below the
 * threshold, the summary the threshold would need is written in the background, for the span that
 * would be summarized then; when the threshold is reached it goes in at once, in the same one
 * transaction as any summary, if it is still right: same base summary, no message of its span
 * changed, and with it the context is back under the threshold (messages added since are simply
 * retained). Otherwise it is dropped and the send takes the quick path. At most one per span.
 */
export function createPreparedSummaries(deps: PreparedSummariesDeps) {
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const entries = new Map<string, Entry>()
  const failures = new Map<string, { count: number; retryAt: number }>()
  /** Chats whose history is being read for a preparation. */
  const reading = new Set<string>()
  let closed = false

  const baseOf = (conv: Conversation) => conv.summary?.id ?? null
  const span = (request: RunRequest) => request.span!

  function stale(sessionId: string, entry: Entry, conv: Conversation): boolean {
    return (
      entry.baseId !== baseOf(conv) ||
      lowestTouchedSince(deps.db, sessionId, entry.mark).lowest <= span(entry.request).lastSeq
    )
  }

  function discard(sessionId: string): void {
    const entry = entries.get(sessionId)
    if (!entry) return
    entries.delete(sessionId)
    entry.controller.abort()
    deps.changed(sessionId)
  }

  async function write(sessionId: string, entry: Entry): Promise<void> {
    try {
      const written = await entry.request.summarize(entry.controller.signal)
      if (entries.get(sessionId) !== entry) return
      entry.written = written
      entry.tokens = entry.request.conv.summaryTokensOf(written.text)
      failures.delete(sessionId)
      if (deps.keep?.(sessionId, entry.request, written)) entries.delete(sessionId)
    } catch (err) {
      if (entries.get(sessionId) !== entry) return
      entries.delete(sessionId)
      const count = (failures.get(sessionId)?.count ?? 0) + 1
      const delay = delays[Math.min(count, delays.length) - 1] ?? 0
      failures.set(sessionId, { count, retryAt: deps.clock.now() + delay })
      deps.log.warn(
        'A summary prepared ahead could not be written; it is tried again later',
        err instanceof Error ? err.message : err
      )
    }
    deps.changed(sessionId)
  }

  return {
    /** After a reply: starts writing the next summary when the context passed the preparation point. */
    consider(sessionId: string, trigger: PrepareTrigger): void {
      if (closed) return
      const conv = deps.conversation(sessionId)
      const existing = entries.get(sessionId)
      if (existing && !stale(sessionId, existing, conv)) return
      if (existing) discard(sessionId)
      const percent = deps.preparePercent(conv, trigger)
      if (percent <= 0) return
      const retry = failures.get(sessionId)
      if (retry && deps.clock.now() < retry.retryAt) return
      const total = conv.total()
      // At or past the threshold the next send compresses anyway (counted tokens, as the trigger compares).
      if (total < (conv.budget.countedThreshold * percent) / 100 || total >= conv.budget.countedThreshold) return
      if (reading.has(sessionId)) return
      const mark = writeMark(deps.db, sessionId)
      reading.add(sessionId)
      // The history is read a page at a time, so a long chat's reply is not held up by planning.
      void conv
        .loadHistory()
        .then(() => {
          reading.delete(sessionId)
          if (closed || entries.has(sessionId)) return
          const request = deps.build(conv)
          if (!request?.span) return
          // A write meanwhile that touched the span (or a new summary) is caught by `stale` when it is taken.
          const entry: Entry = { baseId: baseOf(conv), mark, request, controller: new AbortController(), tokens: null }
          entries.set(sessionId, entry)
          deps.changed(sessionId)
          void write(sessionId, entry)
        })
        .catch((err: unknown) => {
          reading.delete(sessionId)
          deps.log.warn('A summary could not be prepared ahead', err instanceof Error ? err.message : err)
        })
    },

    /**
     * At the threshold: the prepared summary as a run to commit now, or undefined (none, still
     * being written, or no longer right; then it is dropped).
     */
    take(conv: Conversation): RunRequest | undefined {
      const sessionId = conv.session.id
      const entry = entries.get(sessionId)
      if (!entry) return undefined
      const written = entry.written
      if (!written || stale(sessionId, entry, conv)) {
        discard(sessionId)
        return undefined
      }
      const summaryTokens = conv.summaryTokensOf(written.text)
      const covered = span(entry.request).tokens
      if (conv.totalAfter(covered, summaryTokens, entry.request.cutoffId) > conv.budget.countedThreshold) {
        discard(sessionId)
        return undefined
      }
      entries.delete(sessionId)
      const tokensBefore = conv.contextTokens()
      return {
        ...entry.request,
        conv,
        tokensBefore,
        content: { ...entry.request.content, contextTokensBefore: tokensBefore },
        coveredTokens: covered,
        summarize: () => written,
        background: 'prepared'
      }
    },

    discard,

    state(sessionId: string): PreparedSummaryState | undefined {
      const entry = entries.get(sessionId)
      if (!entry) return undefined
      const { firstSeq, lastSeq } = span(entry.request)
      return {
        state: entry.written ? 'ready' : 'writing',
        messages: entry.request.messages,
        firstSeq,
        lastSeq,
        tokens: entry.tokens,
        costUsd: entry.written?.costUsd ?? null
      }
    },

    close(): void {
      closed = true
      for (const sessionId of [...entries.keys()]) discard(sessionId)
    }
  }
}
