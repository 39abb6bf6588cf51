import { create } from 'zustand'
import type { ChatCost } from '../../../shared/contract'
import { api } from '../api/client'

/**
 * What a chat's requests took, as the providers reported them (`chat.cost`): read when the meter's
 * popover or the inspector shows it, not on every keystroke.
 */
interface CostState {
  cost: Record<string, ChatCost>
  /** Fetches the chat's cost now; a failure keeps the last numbers (they are details, not the meter). */
  load(sessionId: string): Promise<void>
}

const seqs = new Map<string, number>()

export const useCostStore = create<CostState>()((set) => ({
  cost: {},

  async load(sessionId) {
    const seq = (seqs.get(sessionId) ?? 0) + 1
    seqs.set(sessionId, seq)
    try {
      const cost = await api.request('chat.cost', { sessionId })
      if (seqs.get(sessionId) !== seq) return // a newer answer is on its way
      set((s) => ({ cost: { ...s.cost, [sessionId]: cost } }))
    } catch {
      // Nothing to add: the line stays as it was (or absent), and the next open asks again.
    }
  }
}))
