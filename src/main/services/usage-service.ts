import type { ContextUsage } from '../../shared/contract'
import type { ChatMessage } from '../../shared/domain/chat-message'
import type { Session } from '../../shared/domain/session'
import { listMessages, updateMessage } from '../db/repositories/messages-repo'
import { readSettingRows, writeSetting } from '../db/repositories/settings-repo'
import { computeBudget } from '../engine/budget'
import { modelKey, type ModelSpec } from '../models/catalog'
import { Calibrator, conservativeThreshold } from '../tokens/calibration'
import { countMessage as countLocally, isExactCounter, localCounterFor, requestOverhead } from '../tokens/message-tokens'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import type { ModelsService } from './models-service'
import type { ProvidersService } from './providers-service'
import { requestHistory } from './request-history'
import type { ServiceDeps } from './service-deps'
import type { SessionsService } from './sessions-service'
import type { SettingsService } from './settings-service'

const CALIBRATION_KEY = 'internal.tokenCalibration'

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
  function fits(message: ChatMessage, spec: ModelSpec): boolean {
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

  function context(sessionId: string, draft = '', beforeSeq = Infinity): ContextUsage & { rawTokens: number } {
    const session = sessions.get(sessionId)
    const spec = specOf(session)
    const history = requestHistory(listMessages(db, sessionId), beforeSeq)
    let historyTokens = 0
    let exact = true
    const counters = new Set<string>()
    const stale: ChatMessage[] = []
    for (const m of history) {
      if (fits(m, spec)) {
        historyTokens += m.tokenCount!
        counters.add(m.tokenCounter!)
        if (!isExactCounter(m.tokenCounter!)) exact = false
      } else {
        const local = countLocally({ role: m.role, parts: m.parts }, spec)
        historyTokens += local.tokens
        counters.add(local.counter)
        if (!isExactCounter(local.counter)) exact = false
        if (m.status !== 'streaming') stale.push(m)
      }
    }
    if (stale.length > 0) recount(session, spec, stale)
    const system = session.systemPrompt
      ? countLocally({ role: 'system', parts: [{ type: 'text', text: session.systemPrompt }] }, spec).tokens
      : 0
    const draftTokens = draft.trim() ? tokenCounter().estimateText(draft, spec) : 0
    const overhead = requestOverhead(spec)
    const rawTokens = system + historyTokens + draftTokens + overhead
    const tokens = exact ? rawTokens : calibrator.apply(modelKey(spec.provider, spec.id), rawTokens)
    const s = settings.get()
    const budget = computeBudget({
      contextWindow: spec.contextWindow,
      maxOutput: spec.maxOutput,
      safetyMarginPercent: s.safetyMarginPercent,
      thresholdPercent: conservativeThreshold(s.thresholdPercent, exact)
    })
    return {
      sessionId,
      provider: spec.provider,
      modelId: spec.id,
      modelLabel: spec.label,
      modelKnown: spec.known,
      tokens,
      rawTokens,
      breakdown: { system, history: historyTokens, draft: draftTokens, overhead },
      messages: history.length,
      exact,
      counter: counters.size === 1 ? [...counters][0]! : counters.size === 0 ? localCounterFor(spec) : 'mixed',
      recounting: recounting.has(sessionId),
      budget
    }
  }

  return {
    context: (sessionId: string, draft?: string): ContextUsage => {
      const { rawTokens: _raw, ...usage } = context(sessionId, draft)
      return usage
    },

    /** Counts a message just written (the user's, or a finished reply) and stores the count. */
    messageWritten(message: ChatMessage, session: Session): void {
      if (message.status === 'streaming' || message.parts.length === 0) return
      void countAndStore(message, specOf(session))
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
