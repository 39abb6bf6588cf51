import type { ContextUsage } from '../../shared/contract'
import type { ChatMessage } from '../../shared/domain/chat-message'
import type { Session } from '../../shared/domain/session'
import { findMessage, findMessages, listHistoryHeads, updateMessage, type MessageHead } from '../db/repositories/messages-repo'
import { readSettingRows, writeSetting } from '../db/repositories/settings-repo'
import { SUMMARY_PREFIX } from '../engine/build-context'
import { computeBudget, type Budget } from '../engine/budget'
import type { EngineMessage } from '../engine/types'
import { activeSummary } from '../db/repositories/snapshots-repo'
import type { Snapshot } from '../../shared/domain/snapshot'
import { plainText } from '../tokens/render'
import { modelKey, type ModelSpec } from '../models/catalog'
import { Calibrator, conservativeThreshold } from '../tokens/calibration'
import { countMessage as countLocally, isExactCounter, localCounterFor, requestOverhead } from '../tokens/message-tokens'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import type { ModelsService } from './models-service'
import type { ProvidersService } from './providers-service'
import type { ServiceDeps } from './service-deps'
import type { SessionsService } from './sessions-service'
import type { SettingsService } from './settings-service'
import type { RecallPlan } from '../engine/recall/plan-recall'
import { withDraft } from './draft-conversation'

const CALIBRATION_KEY = 'internal.tokenCalibration'

export type UsageService = ReturnType<typeof createUsageService>

export interface Conversation {
  session: Session
  spec: ModelSpec & { known: boolean }
  budget: Budget
  /** Every count came from the model's own tokenizer. */
  exact: boolean
  counter: string
  summary?: Snapshot
  summaryTokens: number
  /** Messages after the summary's cutoff, oldest first. */
  history: EngineMessage[]
  systemTokens: number
  overheadTokens: number
  countText(text: string, role?: 'system' | 'user'): number
  /** Applies the model's calibration to an estimated total. */
  calibrate(raw: number): number
  /** The stored messages behind history entries, read in batches. */
  loadMessages(ids: readonly string[]): Map<string, ChatMessage>
}

/** A stored message as the engine sees it; its text is read from the database on first use. */
export function lazyEngineMessage(head: MessageHead, tokens: number, loadText: () => string): EngineMessage {
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
    /** What sending a draft would recall (DESIGN §11), for the meter's breakdown. */
    recall?: (conv: Conversation) => RecallPlan
  }
) {
  const { db, emit, log, sessions, settings, providers, models } = deps
  const stored = readSettingRows(db).find((r) => r.key === CALIBRATION_KEY)?.value
  const calibrator = new Calibrator((stored ?? {}) as ConstructorParameters<typeof Calibrator>[0])
  const recounting = new Set<string>()

  // Remote countTokens endpoints follow the configured keys; rebuild the counter when they change.
  let counter: TokenCounter | undefined
  let counterKey = ''
  function tokenCounter(): TokenCounter {
    const anthropic = providers.connection('anthropic')
    const google = providers.connection('google')
    const remote = {
      ...(anthropic.apiKey ? { anthropic: { apiKey: anthropic.apiKey, baseURL: anthropic.baseURL ?? 'https://api.anthropic.com/v1' } } : {}),
      ...(google.apiKey ? { google: { apiKey: google.apiKey, baseURL: google.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta' } } : {})
    }
    const key = JSON.stringify(remote)
    if (!counter || key !== counterKey) {
      counter?.dispose()
      counter = createTokenCounter({ remote, fetch: deps.fetch, timeoutMs: deps.countTimeoutMs, log, calibration: calibrator })
      counterKey = key
    }
    return counter
  }

  function specOf(session: Session): ModelSpec & { known: boolean } {
    return models.spec(session.provider ?? settings.get().defaultProvider, session.modelId ?? settings.get().defaultModel)
  }

  /** A stored count is usable when it came from the counter this model uses now. */
  function fits(message: Pick<ChatMessage, 'tokenCount' | 'tokenCounter'>, spec: ModelSpec): boolean {
    if (message.tokenCount === null || message.tokenCounter === null) return false
    return message.tokenCounter === localCounterFor(spec) || message.tokenCounter === `api:${spec.provider}:${spec.id}`
  }

  async function countAndStore(message: ChatMessage, spec: ModelSpec): Promise<void> {
    const result = await tokenCounter().countMessage({ role: message.role, parts: message.parts }, spec)
    updateMessage(db, message.id, { tokenCount: result.tokens, tokenCounter: result.counter })
  }

  /** Recounts, once and off the request path, the messages counted for another model. */
  function recount(session: Session, spec: ModelSpec, stale: ChatMessage[]): void {
    if (recounting.has(session.id)) return
    recounting.add(session.id)
    void (async () => {
      for (const message of stale) await countAndStore(message, spec)
    })()
      .catch((err: unknown) => log.warn('Recounting tokens failed', err))
      .finally(() => {
        recounting.delete(session.id)
        emit('usage.changed', { sessionId: session.id })
      })
  }

  /** Counts a text as one message of the chat's model (framing included), locally and at once. */
  function countText(spec: ModelSpec, role: 'system' | 'user', text: string): number {
    return countLocally({ role, parts: [{ type: 'text', text }] }, spec).tokens
  }

  /**
   * The chat as the next request sees it: system prompt, the active summary, the messages after its
   * cutoff (each with its stored count, or a local count while a recount runs), and the budget.
   */
  /**
   * Heads of the request history in (afterSeq, beforeSeq) as engine messages: stored counts where
   * they fit the model, local counts (and a background recount) where not. Text is read lazily,
   * only for the messages a request really carries.
   */
  function countedHistory(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number) {
    const heads = listHistoryHeads(db, session.id, afterSeq, beforeSeq)
    const staleIds = heads.filter((h) => !fits(h, spec)).map((h) => h.id)
    const staleRows = staleIds.length ? findMessages(db, staleIds) : new Map<string, ChatMessage>()
    const history: EngineMessage[] = []
    const counters = new Set<string>()
    let exact = true
    // Full rows are read in batches around the first one asked for: a request reads its retained
    // messages with a few queries instead of one each.
    const rows = new Map<string, ChatMessage>(staleRows)
    const rowOf = (index: number): ChatMessage => {
      const id = heads[index]!.id
      if (!rows.has(id)) {
        const batch = heads.slice(Math.max(0, index - 255), index + 257).map((h) => h.id).filter((x) => !rows.has(x))
        for (const [k, v] of findMessages(db, batch)) rows.set(k, v)
      }
      return rows.get(id)!
    }
    for (const [index, h] of heads.entries()) {
      let tokens: number
      const row = staleRows.get(h.id)
      if (row) {
        const local = countLocally({ role: row.role, parts: row.parts }, spec)
        tokens = local.tokens
        counters.add(local.counter)
        if (!isExactCounter(local.counter)) exact = false
      } else {
        tokens = h.tokenCount!
        counters.add(h.tokenCounter!)
        if (!isExactCounter(h.tokenCounter!)) exact = false
      }
      history.push(lazyEngineMessage(h, tokens, () => plainText(rowOf(index))))
    }
    const indexOf = new Map(heads.map((h, i) => [h.id, i]))
    const loadMessages = (ids: readonly string[]): Map<string, ChatMessage> =>
      new Map(ids.map((id) => [id, indexOf.has(id) ? rowOf(indexOf.get(id)!) : findMessage(db, id)!]))
    return { history, counters, exact, stale: [...staleRows.values()], loadMessages }
  }

  /**
   * The chat as the next request sees it: system prompt, the active summary, the messages after its
   * cutoff (each with its stored count, or a local count while a recount runs), and the budget.
   */
  function conversation(sessionId: string, beforeSeq = Infinity): Conversation {
    const session = sessions.get(sessionId)
    const spec = specOf(session)
    const summary = activeSummary(db, sessionId)
    const { history, counters, exact, stale, loadMessages } = countedHistory(session, spec, summary?.cutoffSeq ?? 0, beforeSeq)
    if (stale.length > 0) recount(session, spec, stale)
    const s = settings.get()
    const budget = computeBudget({
      contextWindow: spec.contextWindow,
      maxOutput: spec.maxOutput,
      safetyMarginPercent: s.safetyMarginPercent,
      thresholdPercent: conservativeThreshold(s.thresholdPercent, exact)
    })
    return {
      session,
      spec,
      budget,
      exact,
      counter: counters.size === 1 ? [...counters][0]! : counters.size === 0 ? localCounterFor(spec) : 'mixed',
      summary,
      summaryTokens: summary ? countText(spec, 'system', SUMMARY_PREFIX + summary.content.summaryText) : 0,
      history,
      systemTokens: session.systemPrompt ? countText(spec, 'system', session.systemPrompt) : 0,
      overheadTokens: requestOverhead(spec),
      countText: (text: string, role: 'system' | 'user' = 'user') => countText(spec, role, text),
      loadMessages,
      calibrate: (raw: number) => (exact ? raw : calibrator.apply(modelKey(spec.provider, spec.id), raw))
    }
  }

  function context(sessionId: string, draft = '', beforeSeq = Infinity): ContextUsage & { rawTokens: number } {
    const c = conversation(sessionId, beforeSeq)
    const historyTokens = c.history.reduce((sum, m) => sum + m.tokens, 0)
    const draftTokens = draft.trim() ? tokenCounter().estimateText(draft, c.spec) : 0
    const recalled = draft.trim() && deps.recall ? deps.recall(withDraft(c, draft)) : undefined
    const recalledTokens = recalled?.tokens ?? 0
    const rawTokens = c.systemTokens + c.summaryTokens + recalledTokens + historyTokens + draftTokens + c.overheadTokens
    return {
      sessionId,
      provider: c.spec.provider,
      modelId: c.spec.id,
      modelLabel: c.spec.label,
      modelKnown: c.spec.known,
      tokens: c.calibrate(rawTokens),
      rawTokens,
      breakdown: { system: c.systemTokens, summary: c.summaryTokens, history: historyTokens, draft: draftTokens, recalled: recalledTokens, overhead: c.overheadTokens },
      recalledIds: recalled?.messageIds ?? [],
      messages: c.history.length,
      summarizedMessages: c.summary?.content.messagesIncluded ?? 0,
      exact: c.exact,
      counter: c.counter,
      recounting: recounting.has(sessionId),
      budget: c.budget
    }
  }

  /** Messages in (afterSeq, uptoSeq] as the engine sees them, counted for the chat's model. */
  function engineMessages(sessionId: string, afterSeq: number, uptoSeq: number): EngineMessage[] {
    const session = sessions.get(sessionId)
    return countedHistory(session, specOf(session), afterSeq, uptoSeq + 1).history
  }

  return {
    conversation,
    engineMessages,
    countText: (session: Session, text: string) => countText(specOf(session), 'user', text),
    context: (sessionId: string, draft?: string): ContextUsage => {
      const { rawTokens: _raw, ...usage } = context(sessionId, draft)
      return usage
    },

    /** Counts a message just written (the user's, or a finished reply) and stores the count. */
    messageWritten(message: ChatMessage, session: Session): Promise<void> {
      if (message.status === 'streaming' || message.parts.length === 0) return Promise.resolve()
      return countAndStore(message, specOf(session))
        .catch((err: unknown) => log.warn('Counting a message failed', err))
        .finally(() => emit('usage.changed', { sessionId: session.id }))
    },

    /** Provider-reported input tokens calibrate the local estimate of the same request. */
    replyFinished(reply: ChatMessage, session: Session): void {
      if (reply.inputTokens === null) return
      const spec = specOf(session)
      const estimated = context(session.id, '', reply.seq).rawTokens
      calibrator.observe(modelKey(spec.provider, spec.id), estimated, reply.inputTokens)
      writeSetting(db, CALIBRATION_KEY, calibrator.toJSON(), deps.clock.now())
    },

    /** Counts still in flight (tests, shutdown). */
    dispose(): void {
      counter?.dispose()
    }
  }
}
