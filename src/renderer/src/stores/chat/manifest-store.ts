import { create } from 'zustand'
import type { ManifestItem } from '../../../../shared/domain/attachments'
import { api } from '../../api/client'

interface ManifestState {
  /** Per chat: the files the active summary stands for, as of that summary's cutoff. */
  bySession: Record<string, { cutoffSeq: number; items: ManifestItem[] }>
  /** Fetches the manifest unless the one kept is for this cutoff. */
  ensure(sessionId: string, cutoffSeq: number): void
}

/** The fetch in flight per chat, with the cutoff it was asked for. */
const inFlight = new Map<string, number>()

/**
 * The attachments that left the active context, read on the server: the window holds only the
 * pages of a chat it loaded, which need not include every summarized message. Summarized messages
 * cannot change, so the list only changes with the summary's cutoff.
 */
export const useManifestStore = create<ManifestState>()((set, get) => ({
  bySession: {},
  ensure(sessionId, cutoffSeq) {
    if (get().bySession[sessionId]?.cutoffSeq === cutoffSeq || inFlight.get(sessionId) === cutoffSeq) return
    inFlight.set(sessionId, cutoffSeq)
    api
      .request('attachments.manifest', { sessionId })
      .then((manifest) => set((s) => ({ bySession: { ...s.bySession, [sessionId]: manifest } })))
      // The loaded messages' own list stands in until the next summary change asks again.
      .catch(() => undefined)
      .finally(() => {
        if (inFlight.get(sessionId) === cutoffSeq) inFlight.delete(sessionId)
      })
  }
}))
