import { create } from 'zustand'
import type { ContextUsage } from '../../../shared/contract'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'
import { useChatStore } from './chat/chat-store'

/** Typing and bursts of events (a reply, its count, the list update) settle into one request. */
const DEBOUNCE_MS = 200
/**
 * What the draft would recall (a search of the summarized history) is asked for once typing
 * pauses this long: each keystroke's count stays a sum of stored counts.
 */
const RECALL_IDLE_MS = 700

interface UsageState {
  /** What the next request of each chat costs (the context meter), with the draft included. */
  usage: Record<string, ContextUsage>
  errors: Record<string, string | null>
  /** Refetches soon, coalescing calls; `now` skips the wait (the model just changed). */
  refresh(sessionId: string, options?: { now?: boolean }): void
  forget(sessionId: string): void
}

const timers = new Map<string, ReturnType<typeof setTimeout>>()
const recallTimers = new Map<string, ReturnType<typeof setTimeout>>()
const seqs = new Map<string, number>()

export const useUsageStore = create<UsageState>()((set) => {
  async function fetchNow(sessionId: string, recall = false): Promise<void> {
    const seq = (seqs.get(sessionId) ?? 0) + 1
    seqs.set(sessionId, seq)
    const draft = useChatStore.getState().drafts[sessionId] ?? ''
    try {
      const usage = await api.request(
        'chat.context',
        draft.trim() ? { sessionId, draft, ...(recall ? { recall } : {}) } : { sessionId }
      )
      if (seqs.get(sessionId) !== seq) return // a newer count is on its way
      set((s) => ({ usage: { ...s.usage, [sessionId]: usage }, errors: { ...s.errors, [sessionId]: null } }))
    } catch (error) {
      if (seqs.get(sessionId) !== seq) return
      // Keep the last good numbers: a meter that blinks away while typing helps nobody.
      set((s) => ({ errors: { ...s.errors, [sessionId]: errorMessage(error) } }))
    }
  }

  return {
    usage: {},
    errors: {},

    refresh(sessionId, options = {}) {
      clearTimeout(timers.get(sessionId))
      clearTimeout(recallTimers.get(sessionId))
      // With a draft, what it would recall follows once typing pauses.
      if (useChatStore.getState().drafts[sessionId]?.trim()) {
        recallTimers.set(
          sessionId,
          setTimeout(() => {
            recallTimers.delete(sessionId)
            void fetchNow(sessionId, true)
          }, RECALL_IDLE_MS)
        )
      }
      if (options.now) {
        timers.delete(sessionId)
        void fetchNow(sessionId)
        return
      }
      timers.set(
        sessionId,
        setTimeout(() => {
          timers.delete(sessionId)
          void fetchNow(sessionId)
        }, DEBOUNCE_MS)
      )
    },

    forget(sessionId) {
      clearTimeout(timers.get(sessionId))
      clearTimeout(recallTimers.get(sessionId))
      timers.delete(sessionId)
      recallTimers.delete(sessionId)
      seqs.delete(sessionId)
      set((s) => {
        const { [sessionId]: _gone, ...usage } = s.usage
        const { [sessionId]: _error, ...errors } = s.errors
        return { usage, errors }
      })
    }
  }
})
