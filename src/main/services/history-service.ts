import type { ChatMessage } from '../../shared/domain/chat-message'
import { listMessages } from '../db/repositories/messages-repo'
import { searchMessages } from '../db/repositories/history-repo'
import { activeSummary } from '../db/repositories/snapshots-repo'
import type { ServiceDeps } from './service-deps'
import type { SessionsService } from './sessions-service'
import type { SettingsService } from './settings-service'
import type { UsageService } from './usage-service'
import { scoreTurns, type TurnClass } from '../engine/strategies/importance/score-turns'

export type HistoryService = ReturnType<typeof createHistoryService>

/** The full, uncompressed history of a chat, and search over it (FR-6.3). */
export function createHistoryService({ db, sessions, usage, settings }: ServiceDeps & { sessions: SessionsService; usage: UsageService; settings: SettingsService }) {
  const cutoffOf = (sessionId: string) => activeSummary(db, sessionId)?.cutoffSeq ?? 0
  return {
    list(sessionId: string): { messages: Array<ChatMessage & { inContext: boolean; importance?: { score: number; class: TurnClass } }>; summaryCutoffSeq: number } {
      const session = sessions.get(sessionId)
      const cutoff = cutoffOf(sessionId)
      // Scored here, when someone looks, not on the request path.
      const scores = new Map<string, { score: number; class: TurnClass }>()
      if ((session.strategy ?? settings.get().strategy) === 'importance') {
        for (const s of scoreTurns(usage.engineMessages(sessionId, 0, Infinity))) scores.set(s.id, { score: Math.round(s.score * 10) / 10, class: s.class })
      }
      return {
        messages: listMessages(db, sessionId).map((m) => ({ ...m, inContext: m.seq > cutoff, ...(scores.has(m.id) ? { importance: scores.get(m.id)! } : {}) })),
        summaryCutoffSeq: cutoff
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
