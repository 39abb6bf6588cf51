import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { MessageCursor } from '../../../shared/contract/message-page'
import { countPathUpTo } from '../../db/repositories/messages/message-page-repo'
import { lowestTouchedSince, writeMark, type WriteMark } from '../../db/repositories/write-generation'
import { listMessages } from '../../db/repositories/messages/messages-repo'
import { searchMessages } from '../../db/repositories/search-repo'
import { activeSummary } from '../../db/repositories/snapshots-repo'
import type { ServiceDeps } from '../service-deps'
import type { SessionsService } from '../sessions/sessions-service'
import type { SettingsService } from '../settings/settings-service'
import type { UsageService } from '../conversation/usage-service'
import { readPage } from '../sessions/message-page'
import { scoreTurns, type TurnClass } from '../../engine/strategies/importance/score-turns'

export type HistoryService = ReturnType<typeof createHistoryService>

/** The full, uncompressed history of a chat, and search over it (FR-6.3). */
export function createHistoryService({
  db,
  sessions,
  usage,
  settings
}: ServiceDeps & { sessions: SessionsService; usage: UsageService; settings: SettingsService }) {
  const cutoffOf = (sessionId: string) => activeSummary(db, sessionId)?.cutoffSeq ?? 0
  type Scored = { score: number; class: TurnClass }
  type HistoryMessage = ChatMessage & { inContext: boolean; importance?: Scored }

  /**
   * Per chat, the scores as of a point in its writes: the pages of one look at Full history are
   * scored once (scores need every turn: novelty is against all earlier ones).
   */
  const scored = new Map<string, { mark: WriteMark; scores: Map<string, Scored> }>()

  /** Importance scores, only with that strategy: computed when someone looks, not on the request path. */
  function scoresOf(sessionId: string): Map<string, Scored> {
    if (settings.forChat(sessions.get(sessionId)).strategy !== 'importance') return new Map()
    const kept = scored.get(sessionId)
    if (kept && lowestTouchedSince(db, sessionId, kept.mark).lowest === Number.POSITIVE_INFINITY) return kept.scores
    const mark = writeMark(db, sessionId)
    const scores = new Map<string, Scored>()
    for (const s of scoreTurns(usage.engineMessages(sessionId, 0, Infinity)))
      scores.set(s.id, { score: Math.round(s.score * 10) / 10, class: s.class })
    // One chat's scores are kept: the one whose Full history is open.
    scored.clear()
    scored.set(sessionId, { mark, scores })
    return scores
  }

  const mark = (messages: ChatMessage[], cutoff: number, scores: Map<string, Scored>): HistoryMessage[] =>
    messages.map((m) => ({
      ...m,
      inContext: m.seq > cutoff,
      ...(scores.has(m.id) ? { importance: scores.get(m.id)! } : {})
    }))

  return {
    /** Every message of a chat (tools and tests); the app reads it in pages. */
    list(sessionId: string): { messages: HistoryMessage[]; summaryCutoffSeq: number } {
      const cutoff = cutoffOf(sessionId)
      return { messages: mark(listMessages(db, sessionId), cutoff, scoresOf(sessionId)), summaryCutoffSeq: cutoff }
    },
    /** A page of the full history: what a page holds is read, plus one count over the index. */
    page(sessionId: string, cursor: MessageCursor = {}) {
      const scores = scoresOf(sessionId)
      const cutoff = cutoffOf(sessionId)
      const page = readPage(db, sessionId, cursor)
      return {
        ...page,
        messages: mark(page.messages, cutoff, scores),
        summaryCutoffSeq: cutoff,
        summarizedCount: countPathUpTo(db, sessionId, cutoff)
      }
    },
    search(sessionId: string, query: string) {
      sessions.get(sessionId)
      const cutoff = cutoffOf(sessionId)
      const { rows, total } = searchMessages(db, sessionId, query)
      return { hits: rows.map((r) => ({ ...r, inContext: r.seq > cutoff })), total }
    }
  }
}
