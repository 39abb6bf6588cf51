import type { ChatMessage } from '../../shared/domain/chat-message'
import { listMessages } from '../db/repositories/messages-repo'
import { searchMessages } from '../db/repositories/history-repo'
import { activeSummary } from '../db/repositories/snapshots-repo'
import type { ServiceDeps } from './service-deps'
import type { SessionsService } from './sessions-service'

export type HistoryService = ReturnType<typeof createHistoryService>

/** The full, uncompressed history of a chat, and search over it (FR-6.3). */
export function createHistoryService({ db, sessions }: ServiceDeps & { sessions: SessionsService }) {
  const cutoffOf = (sessionId: string) => activeSummary(db, sessionId)?.cutoffSeq ?? 0
  return {
    list(sessionId: string): { messages: Array<ChatMessage & { inContext: boolean }>; summaryCutoffSeq: number } {
      sessions.get(sessionId)
      const cutoff = cutoffOf(sessionId)
      return { messages: listMessages(db, sessionId).map((m) => ({ ...m, inContext: m.seq > cutoff })), summaryCutoffSeq: cutoff }
    },
    search(sessionId: string, query: string) {
      sessions.get(sessionId)
      const cutoff = cutoffOf(sessionId)
      const { rows, total } = searchMessages(db, sessionId, query)
      return { hits: rows.map((r) => ({ ...r, inContext: r.seq > cutoff })), total }
    }
  }
}
