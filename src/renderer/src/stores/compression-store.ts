import { create } from 'zustand'
import type { CompressionReport, ErrorCode, EventPayload, SummaryDraft } from '../../../shared/contract'
import type { RunType, Snapshot } from '../../../shared/domain/snapshot'
import { api } from '../api/client'
import { errorMessage, isApiError } from '../api/api-error'

export type { RunType }

/** A compression under way: what it does, and the summary streamed so far ('compression.progress'). */
export interface RunningCompression {
  type: RunType
  messages: number
  text: string
  /** A long span summarized in passes or parts: how far it is. */
  part?: { done: number; total: number }
}

export interface CompressionState {
  /** The active summary per chat (null: none); undefined until fetched. */
  active: Record<string, Snapshot | null>
  running: Record<string, RunningCompression | null>
  /** The summary waiting for the user's review per chat (review before the swap), null: none. */
  draft: Record<string, SummaryDraft | null>
  /** Whether the Summary region of a chat is expanded (collapsed by default). */
  expanded: Record<string, boolean>
  /** Fetches the active summary and whether one is being written. */
  load(sessionId: string): Promise<void>
  setExpanded(sessionId: string, expanded: boolean): void
  /** Manual compression (FR-2). Resolves with the result or the failure; never throws. */
  run(sessionId: string, options: RunOptions): Promise<RunOutcome>
  regenerate(sessionId: string, focus?: string): Promise<RunOutcome>
  cancel(sessionId: string): Promise<string | null>
  /** Restores the context before the latest summary. Resolves with the error, if any. */
  undo(sessionId: string): Promise<string | null>
  /** The draft's text as the user wrote it; resolves with the error, if any. */
  editDraft(sessionId: string, draftId: string, text: string): Promise<string | null>
  /** The draft (with the user's text when given) becomes the active summary. */
  acceptDraft(sessionId: string, draftId: string, text?: string): Promise<string | null>
  discardDraft(sessionId: string, draftId: string): Promise<string | null>
  regenerateDraft(sessionId: string, focus?: string): Promise<RunOutcome>
  /** The active summary replaced by the user's text (undoable). */
  editSummary(sessionId: string, text: string): Promise<string | null>
  started(payload: EventPayload<'compression.started'>): void
  progress(payload: EventPayload<'compression.progress'>): void
  done(payload: EventPayload<'compression.done'>): void
  failed(payload: EventPayload<'compression.failed'>): void
  forget(sessionId: string): void
  reloadAll(): void
}

export interface RunOptions {
  focus?: string
  retentionTokens?: number
}

export type RunOutcome =
  | { ok: true; snapshot: Snapshot; report: CompressionReport }
  | { ok: false; cancelled: boolean; code: ErrorCode | null; message: string }

function failure(error: unknown): RunOutcome {
  const code = isApiError(error) ? error.code : null
  return { ok: false, cancelled: code === 'cancelled', code, message: errorMessage(error) }
}

const loadSeqs = new Map<string, number>()

/** A request whose effect arrives as `compression.changed`: resolves with the error, if any. */
async function attempt(request: () => Promise<unknown>): Promise<string | null> {
  try {
    await request()
    return null
  } catch (error) {
    return errorMessage(error)
  }
}

export const useCompressionStore = create<CompressionState>()((set, get) => {
  /** The active summary, or the draft, written again over the same span (optionally with a focus). */
  async function regenerateWith(
    route: 'compression.regenerate' | 'compression.regenerateDraft',
    sessionId: string,
    focus?: string
  ): Promise<RunOutcome> {
    try {
      const { snapshot, report } = await api.request(route, {
        sessionId,
        ...(focus?.trim() ? { focus: focus.trim() } : {})
      })
      get().done({ sessionId, snapshot, report })
      return { ok: true, snapshot, report }
    } catch (error) {
      set((s) => ({ running: { ...s.running, [sessionId]: null } }))
      return failure(error)
    }
  }

  return {
    active: {},
    running: {},
    draft: {},
    expanded: {},

    async load(sessionId) {
      const seq = (loadSeqs.get(sessionId) ?? 0) + 1
      loadSeqs.set(sessionId, seq)
      try {
        const { summary, running, draft } = await api.request('compression.active', { sessionId })
        if (loadSeqs.get(sessionId) !== seq) return
        set((s) => ({
          active: { ...s.active, [sessionId]: summary },
          draft: { ...s.draft, [sessionId]: draft },
          running: {
            ...s.running,
            // Started before we listened: show that it runs, without its text so far.
            [sessionId]: running ? (s.running[sessionId] ?? { type: 'manual', messages: 0, text: '' }) : null
          }
        }))
      } catch {
        // The chat still works without its summary state; the next event or reconnect refetches.
      }
    },

    setExpanded(sessionId, expanded) {
      set((s) => ({ expanded: { ...s.expanded, [sessionId]: expanded } }))
    },

    async run(sessionId, options) {
      try {
        const { snapshot, report } = await api.request('compression.run', {
          sessionId,
          ...(options.focus?.trim() ? { focus: options.focus.trim() } : {}),
          ...(options.retentionTokens !== undefined ? { retentionTokens: options.retentionTokens } : {})
        })
        get().done({ sessionId, snapshot, report })
        return { ok: true, snapshot, report }
      } catch (error) {
        set((s) => ({ running: { ...s.running, [sessionId]: null } }))
        return failure(error)
      }
    },

    regenerate: (sessionId, focus) => regenerateWith('compression.regenerate', sessionId, focus),

    async cancel(sessionId) {
      try {
        await api.request('compression.cancel', { sessionId })
        return null
      } catch (error) {
        return errorMessage(error)
      }
    },

    async undo(sessionId) {
      try {
        const { active } = await api.request('compression.undo', { sessionId })
        set((s) => ({ active: { ...s.active, [sessionId]: active } }))
        return null
      } catch (error) {
        return errorMessage(error)
      }
    },

    editDraft: (sessionId, draftId, text) =>
      attempt(() => api.request('compression.editDraft', { sessionId, draftId, text })),

    async acceptDraft(sessionId, draftId, text) {
      const failed = await attempt(() =>
        api.request('compression.acceptDraft', { sessionId, draftId, ...(text !== undefined ? { text } : {}) })
      )
      if (!failed) await get().load(sessionId)
      return failed
    },

    discardDraft: (sessionId, draftId) =>
      attempt(() => api.request('compression.discardDraft', { sessionId, draftId })),

    regenerateDraft: (sessionId, focus) => regenerateWith('compression.regenerateDraft', sessionId, focus),

    editSummary: (sessionId, text) => attempt(() => api.request('compression.editSummary', { sessionId, text })),

    started({ sessionId, type, messages }) {
      set((s) => ({ running: { ...s.running, [sessionId]: { type, messages, text: '' } } }))
    },

    progress({ sessionId, delta, part }) {
      const running = get().running[sessionId]
      if (!running) return
      set((s) => ({
        running: { ...s.running, [sessionId]: { ...running, text: running.text + delta, ...(part ? { part } : {}) } }
      }))
    },

    done({ sessionId, snapshot }) {
      if (snapshot.status === 'draft') {
        // A draft replaced nothing: the active summary stays; the draft and what it frees are fetched.
        set((s) => ({ running: { ...s.running, [sessionId]: null } }))
        void get().load(sessionId)
        return
      }
      loadSeqs.set(sessionId, (loadSeqs.get(sessionId) ?? 0) + 1) // an older load must not undo this
      set((s) => ({
        active: { ...s.active, [sessionId]: snapshot },
        running: { ...s.running, [sessionId]: null }
      }))
      // What a waiting draft covers and frees is measured against the summary in use.
      if (get().draft[sessionId]) void get().load(sessionId)
    },

    failed({ sessionId }) {
      set((s) => ({ running: { ...s.running, [sessionId]: null } }))
    },

    forget(sessionId) {
      set((s) => {
        const { [sessionId]: _a, ...active } = s.active
        const { [sessionId]: _r, ...running } = s.running
        const { [sessionId]: _e, ...expanded } = s.expanded
        const { [sessionId]: _d, ...draft } = s.draft
        return { active, running, expanded, draft }
      })
    },

    reloadAll() {
      for (const sessionId of Object.keys(get().active)) void get().load(sessionId)
    }
  }
})

/** Messages up to this seq are represented by the active summary (0: none). */
export function useSummaryCutoff(sessionId: string): number {
  return useCompressionStore((s) => s.active[sessionId]?.cutoffSeq ?? 0)
}
