import { create } from 'zustand'
import type { CrossChatRecall } from '../../../../shared/contract'
import { api } from '../../api/client'

interface SessionRecalls {
  /** reply id → the summarized originals its request recalled, in time order */
  replies: Record<string, string[]>
  /** message id → the replies whose requests recalled it */
  recalledBy: Record<string, string[]>
  /** reply id → the messages of other chats of the project its request recalled */
  crossChat: Record<string, CrossChatRecall[]>
}

interface RecallState {
  bySession: Record<string, SessionRecalls>
  /** A recalled message to show in Full history once it opens. */
  jumpTo: string | null
  load(sessionId: string): Promise<void>
  /** Loads the chat's recalls when this finished reply is not known yet. */
  ensure(sessionId: string, replyId: string): void
  requestJump(messageId: string): void
  takeJump(): string | null
}

const loading = new Map<string, Promise<void>>()
/** Replies already asked about, so a reply that recalled nothing is not asked about again. */
const asked = new Set<string>()

/** What each reply's request recalled from the summarized history (DESIGN §11) and from other chats of its project. */
export const useRecallStore = create<RecallState>()((set, get) => ({
  bySession: {},
  jumpTo: null,

  load(sessionId) {
    const running = loading.get(sessionId)
    if (running) return running
    const run = api
      .request('history.recalls', { sessionId })
      .then(({ replies }) => {
        const recalls: SessionRecalls = { replies: {}, recalledBy: {}, crossChat: {} }
        for (const r of replies) {
          recalls.replies[r.replyId] = r.messageIds
          if (r.crossChat.length > 0) recalls.crossChat[r.replyId] = r.crossChat
          for (const id of r.messageIds) (recalls.recalledBy[id] ??= []).push(r.replyId)
        }
        set((s) => ({ bySession: { ...s.bySession, [sessionId]: recalls } }))
      })
      // A mark that cannot be loaded is simply not shown; the chat itself is unaffected.
      .catch(() => undefined)
      .finally(() => loading.delete(sessionId))
    loading.set(sessionId, run)
    return run
  },

  ensure(sessionId, replyId) {
    if (asked.has(replyId) || get().bySession[sessionId]?.replies[replyId]) return
    asked.add(replyId)
    void get().load(sessionId)
  },

  requestJump: (messageId) => set({ jumpTo: messageId }),

  takeJump() {
    const id = get().jumpTo
    if (id) set({ jumpTo: null })
    return id
  }
}))
