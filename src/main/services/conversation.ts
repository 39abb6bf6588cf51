import type { ChatMessage } from '../../shared/domain/chat-message'
import type { Session } from '../../shared/domain/session'
import { thresholdSetting, type Settings } from '../../shared/domain/settings'
import type { Snapshot } from '../../shared/domain/snapshot'
import type { Db } from '../db/client'
import {
  findMessage,
  findMessages,
  historyTotals,
  listHistoryHeads,
  listHistoryHeadsPage,
  newestSeq,
  staleCounted,
  type HistoryTotal,
  type MessageHead
} from '../db/repositories/messages-repo'
import { activeSummary } from '../db/repositories/snapshots-repo'
import { unchangedUpTo, writeMark, type WriteMark } from '../db/repositories/write-generation'
import { computeBudget, type Budget } from '../engine/budget'
import { LARGE_MESSAGE_SHARE, SUMMARY_PREFIX } from '../engine/build-context'
import { totalTokens, type EngineMessage } from '../engine/types'
import type { ModelSpec } from '../models/catalog'
import { conservativeThreshold } from '../tokens/calibration'
import { countMessage, isExactCounter, localCounterFor, requestOverhead } from '../tokens/message-tokens'
import { createMessageTailCache } from './message-tail-cache'

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
  /** Raw context tokens of the next request: system + summary + history + overhead (+ extra, e.g. a draft). */
  total(extraTokens?: number): number
  countText(text: string, role?: 'system' | 'user'): number
  /** Tokens of a summary text as the request carries it (prefix and system framing included). */
  summaryTokensOf(text: string): number
  /** Applies the model's calibration to an estimated total. */
  calibrate(raw: number): number
  /** The stored messages behind history entries. */
  loadMessages(ids: readonly string[]): Map<string, ChatMessage>
  /** Reads `history` a page at a time, the event loop free between pages (before a compression plans). */
  loadHistory(): Promise<EngineMessage[]>
}

export interface ConversationReaderDeps {
  db: Db
  session(sessionId: string): Session
  spec(session: Session): ModelSpec & { known: boolean }
  settings(): Pick<Settings, 'safetyMarginPercent' | 'thresholdPercent' | 'modelThresholds'>
  /** Calibrates an estimate for the model (exact counts are left as they are). */
  calibrate(spec: ModelSpec, raw: number): number
  /** Messages counted for another tokenizer were found: recount them off the request path. */
  onStale(session: Session, spec: ModelSpec): void
}

interface Totals {
  messages: number
  tokens: number
  counters: Set<string>
  exact: boolean
}

/** A stored message as the engine sees it; its text is read from the database on first use. */
function lazyEngineMessage(head: MessageHead, tokens: number, loadText: () => string): EngineMessage {
  const parts = head.toolParts ?? []
  const calls = parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)
  const results = parts.filter((p) => p.type === 'tool-result').map((p) => p.toolCallId)
  let text: string | undefined
  return {
    id: head.id,
    seq: head.seq,
    role: head.role,
    get text() {
      return (text ??= loadText())
    },
    tokens,
    ...(calls.length ? { toolCallIds: calls } : {}),
    ...(results.length ? { toolResultIds: results } : {}),
    createdAt: head.createdAt
  }
}

/** Counts a text as one message of the model (framing included), locally and at once. */
export function countTextFor(spec: ModelSpec, role: 'system' | 'user', text: string): number {
  return countMessage({ role, parts: [{ type: 'text', text }] }, spec).tokens
}

/** The counters whose stored counts this model can use: its local one and its provider's endpoint. */
export function countersFor(spec: ModelSpec): [string, string] {
  return [localCounterFor(spec), `api:${spec.provider}:${spec.id}`]
}

/** A stored count is usable when it came from the counter this model uses now. */
function fitsCounter(counter: string | null, spec: ModelSpec): boolean {
  return counter !== null && countersFor(spec).includes(counter)
}

/** Counts scaled from another counter's (until the background recount stores real ones). */
const SCALED = 'scaled'
/** Messages counted for the model to learn how its counts compare with the stored ones. */
const RATIO_SAMPLE = 48

const TOTALS_CACHE_LIMIT = 512
/** Messages at the end of a chat whose counts are summed on every request (replies and counts land there). */
const RECENT_MESSAGES = 256
/** Heads counted at a time while walking back from the newest message. */
const WALK_PAGE = 64
/** Heads per page when a whole history is read with the event loop free between pages (~5 ms each). */
const HISTORY_PAGE = 1000

export function createConversationReader(deps: ConversationReaderDeps) {
  const { db } = deps
  const tail = createMessageTailCache(db)
  // Totals of each chat's older messages, valid until a write (here or by another process) touches them.
  const olderTotals = new Map<string, { mark: WriteMark; upto: number; groups: HistoryTotal[] }>()
  // Per chat and counter: the model's counts over the stored ones, on a sample of the newest messages.
  const ratios = new Map<string, number>()

  /**
   * How this model's counts compare with the counts stored for another tokenizer, from a small
   * sample: the rest of the history is scaled by it until the background recount stores real counts.
   */
  function staleRatio(session: Session, spec: ModelSpec): number {
    const key = `${session.id}|${localCounterFor(spec)}`
    const known = ratios.get(key)
    if (known !== undefined) return known
    const sample = staleCounted(db, session.id, countersFor(spec), RATIO_SAMPLE).filter((s) => s.tokenCount !== null)
    const rows = findMessages(db, sample.map((s) => s.id))
    let stored = 0
    let counted = 0
    for (const s of sample) {
      const row = rows.get(s.id)
      if (!row) continue
      stored += s.tokenCount!
      counted += countMessage({ role: row.role, parts: row.parts }, spec).tokens
    }
    const ratio = stored > 0 ? counted / stored : 1
    if (ratios.size >= TOTALS_CACHE_LIMIT) ratios.clear()
    ratios.set(key, ratio)
    return ratio
  }

  /**
   * Heads as engine messages: stored counts where they fit the model; where not, counted locally,
   * or (`ratio`, for a whole history) the stored count scaled to the model's tokenizer.
   */
  function countHeads(heads: readonly MessageHead[], spec: ModelSpec, rowOf: (id: string) => ChatMessage, ratio?: number) {
    const scale = (h: MessageHead) => ratio !== undefined && h.tokenCount !== null && !fitsCounter(h.tokenCounter, spec)
    const staleIds = heads.filter((h) => !scale(h) && (h.tokenCount === null || !fitsCounter(h.tokenCounter, spec))).map((h) => h.id)
    const stale = staleIds.length ? findMessages(db, staleIds) : new Map<string, ChatMessage>()
    const counters = new Set<string>()
    let exact = true
    const messages = heads.map((h) => {
      const row = stale.get(h.id)
      const counted = row
        ? countMessage({ role: row.role, parts: row.parts }, spec)
        : scale(h)
          ? { tokens: Math.max(1, Math.round(h.tokenCount! * ratio!)), counter: SCALED }
          : { tokens: h.tokenCount!, counter: h.tokenCounter! }
      counters.add(counted.counter)
      if (!isExactCounter(counted.counter)) exact = false
      return lazyEngineMessage(h, counted.tokens, () => tail.textOf(row ?? rowOf(h.id)))
    })
    return { messages, counters, exact, stale: stale.size > 0 || heads.some(scale) }
  }

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
    for (let cursor = afterSeq; ; ) {
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
        const batch = heads.slice(Math.max(0, index - 255), index + 257).map((h) => h.id).filter((x) => !rows.has(x))
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
   * Stored counts of the history per counter. The older part (all but the newest messages) is kept
   * per chat until a write touches it; only the newest part is summed again, so a request after a
   * new message does not re-read the chat.
   */
  function countsByCounter(sessionId: string, afterSeq: number, beforeSeq: number): HistoryTotal[] {
    const key = `${sessionId}|${afterSeq}`
    let older = olderTotals.get(key)
    if (older && !unchangedUpTo(db, sessionId, older.mark, older.upto)) older = undefined
    if (!older) {
      const mark = writeMark(db, sessionId)
      const upto = Math.max(afterSeq, newestSeq(db, sessionId) - RECENT_MESSAGES)
      older = { mark, upto, groups: historyTotals(db, sessionId, afterSeq, upto + 1) }
      if (olderTotals.size >= TOTALS_CACHE_LIMIT) olderTotals.clear()
      olderTotals.set(key, older)
    }
    if (beforeSeq <= older.upto + 1) return historyTotals(db, sessionId, afterSeq, beforeSeq)
    const merged = new Map<string | null, HistoryTotal>()
    for (const g of [...older.groups, ...historyTotals(db, sessionId, older.upto, beforeSeq)]) {
      const m = merged.get(g.counter)
      merged.set(g.counter, m ? { counter: g.counter, messages: m.messages + g.messages, tokens: m.tokens + g.tokens, counted: m.counted + g.counted } : g)
    }
    return [...merged.values()]
  }

  /**
   * Tokens of the history from stored counts, those stored for another tokenizer scaled to this
   * model's (and recounted in the background); undefined when some were never counted.
   */
  function storedTotals(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number): Totals | undefined {
    const groups = countsByCounter(session.id, afterSeq, beforeSeq)
    if (groups.some((g) => g.counted < g.messages)) return undefined
    const fits = (g: HistoryTotal) => fitsCounter(g.counter, spec)
    const ratio = groups.every(fits) ? 1 : staleRatio(session, spec)
    if (!groups.every(fits)) deps.onStale(session, spec)
    return {
      messages: groups.reduce((s, g) => s + g.messages, 0),
      tokens: groups.reduce((s, g) => s + (fits(g) ? g.tokens : Math.round(g.tokens * ratio)), 0),
      counters: new Set(groups.map((g) => (fits(g) ? g.counter! : SCALED))),
      exact: groups.every((g) => fits(g) && isExactCounter(g.counter!))
    }
  }

  /**
   * The newest heads back from `beforeSeq` until they fill `room` (each counted at most at the
   * context builder's large-message cap), plus the calls of any tool results among them.
   */
  function newestUntilFull(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number, room: number, rowOf: (id: string) => ChatMessage) {
    const cap = Math.floor(room * LARGE_MESSAGE_SHARE)
    const taken: EngineMessage[] = []
    const openResults = new Set<string>()
    let filled = 0
    const walk = tail.newest(session.id, afterSeq, beforeSeq)
    for (let done = false; !done; ) {
      const heads: MessageHead[] = []
      for (let next = walk.next(); !next.done; next = walk.next()) if (heads.push(next.value) === WALK_PAGE) break
      done = heads.length < WALK_PAGE
      for (const m of countHeads(heads, spec, rowOf).messages) {
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

  function conversation(sessionId: string, beforeSeq = Infinity): Conversation {
    const session = deps.session(sessionId)
    const spec = deps.spec(session)
    const summary = activeSummary(db, sessionId)
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
      thresholdPercent: conservativeThreshold(threshold.percent, totals.exact)
    })
    const systemTokens = session.systemPrompt ? countText(session.systemPrompt, 'system') : 0
    const summaryTokens = summary ? countText(SUMMARY_PREFIX + summary.content.summaryText, 'system') : 0
    const overheadTokens = requestOverhead(spec)

    // Rows of the messages a request carries, read together the first time one is needed.
    const tailRows = new Map<string, ChatMessage>()
    let tailIds: string[] = []
    const rowOf = (id: string): ChatMessage => {
      if (full) return full.rowOf(id)
      if (!tailRows.has(id)) for (const [k, v] of tail.rows(sessionId, [id, ...tailIds.filter((x) => !tailRows.has(x) && x !== id)])) tailRows.set(k, v)
      return tailRows.get(id) ?? findMessage(db, id)!
    }
    let newest: EngineMessage[] | undefined
    const newestHead = () => {
      const first = tail.newest(sessionId, afterSeq, beforeSeq).next()
      return first.done ? [] : [first.value]
    }
    const readNewest = () => (newest ??= full ? full.messages.slice(-1) : countHeads(newestHead(), spec, rowOf).messages)
    const pendingOf = () => (readNewest()[0]?.role === 'user' ? readNewest()[0] : undefined)
    const calibrate = (raw: number) => (totals.exact ? raw : deps.calibrate(spec, raw))

    return {
      session,
      spec,
      budget,
      thresholdSetting: threshold,
      exact: totals.exact,
      counter: totals.counters.size === 1 ? [...totals.counters][0]! : totals.counters.size === 0 ? localCounterFor(spec) : 'mixed',
      summary,
      summaryTokens,
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
        const room = Math.max(0, budget.usable - overheadTokens)
        const tail = full
          ? full.messages.slice(0, pending ? -1 : undefined)
          : newestUntilFull(session, spec, afterSeq, pending ? pending.seq : beforeSeq, room, rowOf)
        tailIds = [...tail.map((m) => m.id), ...(pending ? [pending.id] : [])]
        return tail
      },
      total: (extraTokens = 0) => systemTokens + summaryTokens + totals.tokens + overheadTokens + extraTokens,
      countText,
      summaryTokensOf: (text: string) => countText(SUMMARY_PREFIX + text, 'system'),
      calibrate,
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

  return { conversation, fullHistory, fullHistoryInPages }
}
