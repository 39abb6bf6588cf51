import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import { thresholdSetting, type Settings } from '../../../shared/domain/settings'
import type { Snapshot } from '../../../shared/domain/snapshot'
import type { Db } from '../../db/client'
import {
  findMessage,
  findMessages,
  listHistoryHeads,
  listHistoryHeadsPage,
  newestSeq,
  type MessageHead,
  type MessageParts
} from '../../db/repositories/messages/messages-repo'
import { activeSummary } from '../../db/repositories/snapshots-repo'
import { computeBudget, providerTokens, type Budget, type Calibration } from '../../engine/budget'
import { LARGE_MESSAGE_SHARE, SUMMARY_PREFIX } from '../../engine/build-context'
import { totalTokens, type EngineMessage } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { conservativeThreshold } from '../../tokens/calibration'
import { localCounterFor, requestOverhead } from '../../tokens/message-tokens'
import { countTextFor, createHeadCounter, fitsCounter } from './head-counter'
import { createMessageTailCache } from './message-tail-cache'
import { readPinned, type PinnedParts } from './pinned-parts'
import { createStoredTotals, type Totals } from './stored-totals'

/**
 * A chat as its next request sees it: system prompt, the active summary, the messages after its
 * cutoff, and the budget. Totals come from stored counts (one aggregate query, cached until the
 * chat is written); the messages themselves are read only when asked for.
 */
export interface Conversation {
  session: Session
  spec: ModelSpec & { known: boolean }
  budget: Budget
  /** The threshold set for this chat, its model or globally (before any lowering for estimated counts), and where. */
  thresholdSetting: ReturnType<typeof thresholdSetting>
  /** Every count came from the model's own tokenizer. */
  exact: boolean
  counter: string
  summary?: Snapshot
  summaryTokens: number
  /** Pinned messages: the block of those the summary covers, and those sent in place (`pinned-parts.ts`). */
  pinned: PinnedParts
  /** Counted tokens of every pin the next request carries (the block plus those in place): a fixed part. */
  pinnedTokens: number
  systemTokens: number
  overheadTokens: number
  /** Messages after the summary's cutoff (pending input included): how many, and their tokens. */
  historyCount: number
  historyTokens: number
  /** The newest message after the cutoff. */
  readonly newest: EngineMessage | undefined
  /** The newest message when it is the user's: the input the next request answers. */
  readonly pending: EngineMessage | undefined
  /** Every message after the cutoff, oldest first; read on first use (compression needs them, a request does not). */
  readonly history: EngineMessage[]
  /**
   * The newest messages before the pending input, oldest first, back to where they fill what a
   * request can carry (the context builder never looks further), whole tool exchanges included.
   */
  requestTail(): EngineMessage[]
  /** Counted tokens of the next request: system + summary + pinned block + history + overhead (+ extra, e.g. recalled passages). */
  total(extraTokens?: number): number
  /**
   * The context of the next request in the provider's tokens (the budget's conversion of `total`):
   * the one number the meter, the inspector, `distill context` and every report show.
   */
  contextTokens(extraTokens?: number): number
  /**
   * Counted tokens of the next request after a compression that replaces the active summary and
   * `coveredTokens` of history (up to `cutoffId`) with a summary of `summaryTokens`. Pins it covers
   * stay, in the pinned block: they free no room.
   */
  totalAfter(coveredTokens: number, summaryTokens: number, cutoffId?: string): number
  /** Counted tokens in the provider's tokens (the budget's conversion). */
  cost(counted: number): number
  /** Counted tokens a compression could replace: the active summary and the history but the pending input and pins. */
  compressibleTokens(): number
  /** Counted tokens every request carries whatever is compressed: system prompt, pins, pending input, framing. */
  fixedTokens(): number
  countText(text: string, role?: 'system' | 'user'): number
  /** Tokens of a summary text as the request carries it (prefix and system framing included). */
  summaryTokensOf(text: string): number
  /** The stored messages behind history entries. */
  loadMessages(ids: readonly string[]): Map<string, MessageParts>
  /** Reads `history` a page at a time, the event loop free between pages (before a compression plans). */
  loadHistory(): Promise<EngineMessage[]>
}

export interface ConversationReaderDeps {
  db: Db
  session(sessionId: string): Session
  spec(session: Session): ModelSpec & { known: boolean }
  settings(): Pick<Settings, 'safetyMarginPercent' | 'thresholdPercent' | 'modelThresholds'>
  /** What the provider's reported usage taught about this model's estimated counts. */
  calibration(spec: ModelSpec): Calibration | null
  /** Messages counted for another tokenizer were found: recount them off the request path. */
  onStale(session: Session, spec: ModelSpec): void
}

/** Heads counted at a time while walking back from the newest message. */
const WALK_PAGE = 64
/**
 * Heads per page when a whole history is read with the event loop free between pages: a thousand
 * took ~70 ms at a time on a busy 2-core machine (a compression of 10,000 messages stalled replies).
 */
const HISTORY_PAGE = 250
/** Full rows read at once around the first one a history is asked for: a few behind, more ahead. */
const ROWS_BEHIND = 16
const ROWS_AHEAD = 112

export function createConversationReader(deps: ConversationReaderDeps) {
  const { db } = deps
  const tail = createMessageTailCache(db)
  const { staleRatio, countHeads } = createHeadCounter(db, tail)
  const storedTotals = createStoredTotals(db, { staleRatio }, deps.onStale)

  /** Every message in (afterSeq, beforeSeq); full rows are read in batches around the first one asked for. */
  function fullHistory(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number) {
    const history = historyBuilder(session, spec)
    history.add(listHistoryHeads(db, session.id, afterSeq, beforeSeq))
    return history.done()
  }

  /**
   * The same, read and counted a page at a time with the event loop free between pages: a
   * compression reads a whole 10,000-message history without holding up replies and requests
   * meanwhile. The walk stops at the newest message when it starts, so a message sent meanwhile is
   * not half in.
   */
  async function fullHistoryInPages(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number) {
    const upto = Math.min(beforeSeq, newestSeq(db, session.id) + 1)
    const history = historyBuilder(session, spec)
    for (let cursor = afterSeq; ;) {
      const page = listHistoryHeadsPage(db, session.id, cursor, upto, HISTORY_PAGE)
      history.add(page)
      if (page.length < HISTORY_PAGE) break
      cursor = page.at(-1)!.seq
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    return history.done()
  }

  /** A history as engine messages, built from heads added oldest first. */
  function historyBuilder(session: Session, spec: ModelSpec) {
    const heads: MessageHead[] = []
    const indexOf = new Map<string, number>()
    const rows = new Map<string, ChatMessage>()
    const rowOf = (id: string): ChatMessage => {
      const index = indexOf.get(id)
      if (index === undefined) return rows.get(id) ?? findMessage(db, id)!
      if (!rows.has(id)) {
        // A history is mostly read oldest first: a batch reaches forward, and stays small (512 rows
        // of long messages at once held the event loop for over 100 ms in a model summary's read).
        const batch = heads
          .slice(Math.max(0, index - ROWS_BEHIND), index + ROWS_AHEAD)
          .map((h) => h.id)
          .filter((x) => !rows.has(x))
        for (const [k, v] of findMessages(db, batch)) rows.set(k, v)
      }
      return rows.get(id)!
    }
    const messages: EngineMessage[] = []
    const counters = new Set<string>()
    let exact = true
    let stale = false
    return {
      add(page: readonly MessageHead[]) {
        for (const h of page) indexOf.set(h.id, heads.push(h) - 1)
        // Counts for another tokenizer are scaled (counting 100,000 messages here would freeze the process).
        const anyStale = page.some((h) => h.tokenCount !== null && !fitsCounter(h.tokenCounter, spec))
        const counted = countHeads(page, spec, rowOf, anyStale ? staleRatio(session, spec) : undefined)
        for (const m of counted.messages) messages.push(m)
        for (const c of counted.counters) counters.add(c)
        exact &&= counted.exact
        stale ||= counted.stale
      },
      done() {
        if (stale) deps.onStale(session, spec)
        return { messages, counters, exact, stale, rowOf }
      }
    }
  }

  /**
   * The newest heads back from `beforeSeq` until they fill `room` (each counted at most at the
   * context builder's large-message cap), plus the calls of any tool results among them.
   * `scaleStale`: counts stored for another tokenizer are scaled, not counted again (the meter
   * after a model switch, whose window may hold thousands of them: a 1M-token Gemini window).
   */
  function newestUntilFull(
    session: Session,
    spec: ModelSpec,
    afterSeq: number,
    beforeSeq: number,
    room: number,
    rowOf: (id: string) => MessageParts,
    scaleStale: boolean
  ) {
    const cap = Math.floor(room * LARGE_MESSAGE_SHARE)
    const taken: EngineMessage[] = []
    const openResults = new Set<string>()
    let filled = 0
    const walk = tail.newest(session.id, afterSeq, beforeSeq)
    for (let done = false; !done;) {
      const heads: MessageHead[] = []
      for (let next = walk.next(); !next.done; next = walk.next()) if (heads.push(next.value) === WALK_PAGE) break
      done = heads.length < WALK_PAGE
      const stale = scaleStale && heads.some((h) => h.tokenCount !== null && !fitsCounter(h.tokenCounter, spec))
      for (const m of countHeads(heads, spec, rowOf, stale ? staleRatio(session, spec) : undefined).messages) {
        if (filled > room && openResults.size === 0) {
          done = true
          break
        }
        taken.push(m)
        filled += Math.min(m.tokens, cap)
        m.toolCallIds?.forEach((id) => openResults.delete(id))
        m.toolResultIds?.forEach((id) => openResults.add(id))
      }
    }
    return taken.reverse()
  }

  /**
   * `summary`: read the chat as if this summary were active (a compression not written yet).
   * `estimate`: the meter's reading, where stale counts in the request's tail are scaled like the
   * totals are, until the background recount stores real ones; a request that is sent counts them.
   */
  function conversation(
    sessionId: string,
    beforeSeq = Infinity,
    summaryOverride?: Snapshot,
    options: { estimate?: boolean } = {}
  ): Conversation {
    const session = deps.session(sessionId)
    const spec = deps.spec(session)
    const summary = summaryOverride ?? activeSummary(db, sessionId)
    const afterSeq = summary?.cutoffSeq ?? 0
    const countText = (text: string, role: 'system' | 'user' = 'user') => countTextFor(spec, role, text)

    let full: ReturnType<typeof fullHistory> | undefined
    const loadFull = () => (full ??= fullHistory(session, spec, afterSeq, beforeSeq))
    const totals: Totals =
      storedTotals(session, spec, afterSeq, beforeSeq) ??
      (() => {
        const { messages, counters, exact } = loadFull()
        return { messages: messages.length, tokens: totalTokens(messages), counters, exact }
      })()

    const s = deps.settings()
    const threshold = thresholdSetting(s, spec.provider, spec.id, session.thresholdPercent)
    const budget = computeBudget({
      contextWindow: spec.contextWindow,
      maxOutput: spec.maxOutput,
      safetyMarginPercent: s.safetyMarginPercent,
      thresholdPercent: conservativeThreshold(threshold.percent, totals.exact),
      exact: totals.exact,
      calibration: totals.exact ? null : deps.calibration(spec)
    })
    const systemTokens = session.systemPrompt ? countText(session.systemPrompt, 'system') : 0
    const summaryTokens = summary ? countText(SUMMARY_PREFIX + summary.content.summaryText, 'system') : 0
    const overheadTokens = requestOverhead(spec)
    const pinned = readPinned(db, sessionId, spec, afterSeq, beforeSeq)
    const pinnedTokens = pinned.blockTokens + totalTokens(pinned.inHistory)

    // Rows of the messages a request carries, read together the first time one is needed.
    const tailRows = new Map<string, MessageParts>()
    let tailIds: string[] = []
    const rowOf = (id: string): MessageParts => {
      if (full) return full.rowOf(id)
      if (!tailRows.has(id))
        for (const [k, v] of tail.rows(sessionId, [id, ...tailIds.filter((x) => !tailRows.has(x) && x !== id)]))
          tailRows.set(k, v)
      return tailRows.get(id) ?? findMessage(db, id)!
    }
    let newest: EngineMessage[] | undefined
    const newestHead = () => {
      const first = tail.newest(sessionId, afterSeq, beforeSeq).next()
      return first.done ? [] : [first.value]
    }
    const readNewest = () =>
      (newest ??= full ? full.messages.slice(-1) : countHeads(newestHead(), spec, rowOf).messages)
    const pendingOf = () => (readNewest()[0]?.role === 'user' ? readNewest()[0] : undefined)
    const total = (extraTokens = 0) =>
      systemTokens + summaryTokens + pinned.blockTokens + totals.tokens + overheadTokens + extraTokens
    // A pinned pending input is counted once, as the input.
    const pendingPinned = () => pinned.inHistory.find((p) => p.id === pendingOf()?.id)?.tokens ?? 0

    return {
      session,
      spec,
      budget,
      thresholdSetting: threshold,
      exact: totals.exact,
      counter:
        totals.counters.size === 1
          ? [...totals.counters][0]!
          : totals.counters.size === 0
            ? localCounterFor(spec)
            : 'mixed',
      summary,
      summaryTokens,
      pinned,
      pinnedTokens,
      systemTokens,
      overheadTokens,
      historyCount: totals.messages,
      historyTokens: totals.tokens,
      get newest() {
        return readNewest()[0]
      },
      get pending() {
        return pendingOf()
      },
      get history() {
        return loadFull().messages
      },
      requestTail() {
        const pending = pendingOf()
        const room = Math.max(0, budget.countedUsable - overheadTokens)
        const tail = full
          ? full.messages.slice(0, pending ? -1 : undefined)
          : newestUntilFull(
              session,
              spec,
              afterSeq,
              pending ? pending.seq : beforeSeq,
              room,
              rowOf,
              options.estimate ?? false
            )
        tailIds = [...tail.map((m) => m.id), ...(pending ? [pending.id] : [])]
        return tail
      },
      total,
      contextTokens: (extraTokens = 0) => providerTokens(budget, total(extraTokens)),
      totalAfter: (coveredTokens: number, newSummaryTokens: number, cutoffId?: string) => {
        const cutoff = cutoffId && pinned.inHistory.length > 0 ? findMessage(db, cutoffId)?.seq : undefined
        const block = cutoff === undefined ? pinned.blockTokens : pinned.blockTokensUpTo(cutoff)
        return total() - summaryTokens - coveredTokens + newSummaryTokens - pinned.blockTokens + block
      },
      cost: (counted: number) => providerTokens(budget, counted),
      compressibleTokens: () =>
        summaryTokens +
        totals.tokens -
        (pendingOf()?.tokens ?? 0) -
        (pinnedTokens - pinned.blockTokens - pendingPinned()),
      fixedTokens: () => systemTokens + (pendingOf()?.tokens ?? 0) + overheadTokens + pinnedTokens - pendingPinned(),
      countText,
      summaryTokensOf: (text: string) => countText(SUMMARY_PREFIX + text, 'system'),
      loadMessages: (ids: readonly string[]) => new Map(ids.map((id) => [id, rowOf(id)])),
      async loadHistory() {
        if (!full) {
          const read = await fullHistoryInPages(session, spec, afterSeq, beforeSeq)
          full ??= read
        }
        return full.messages
      }
    }
  }

  return {
    conversation,
    fullHistory,
    fullHistoryInPages,
    /** A message just written, kept with its parts for the next request (message-tail-cache.ts). */
    hold: (message: MessageParts) => tail.hold(message)
  }
}
