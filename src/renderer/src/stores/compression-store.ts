import { create } from 'zustand'
import type { CompressionReport, ErrorCode, EventPayload } from '../../../shared/contract'
import type { RunType, Snapshot } from '../../../shared/domain/snapshot'
import { api } from '../api/client'
import { errorMessage, isApiError } from '../api/api-error'

export type { RunType }

/** A compression under way: what it does, and the summary streamed so far ('compression.progress'). */
export interface RunningCompression {
  type: RunType
  messages: number
  text: string
}

export interface CompressionState {
  /** The active summary per chat (null: none); undefined until fetched. */
  active: Record<string, Snapshot | null>
  running: Record<string, RunningCompression | null>
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

export const useCompressionStore = create<CompressionState>()((set, get) => ({
  active: {},
  running: {},
  expanded: {},

  async load(sessionId) {
    const seq = (loadSeqs.get(sessionId) ?? 0) + 1
    loadSeqs.set(sessionId, seq)
    try {
      const { summary, running } = await api.request('compression.active', { sessionId })
      if (loadSeqs.get(sessionId) !== seq) return
      set((s) => ({
        active: { ...s.active, [sessionId]: summary },
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

  async regenerate(sessionId, focus) {
    try {
      const { snapshot, report } = await api.request('compression.regenerate', {
        sessionId,
        ...(focus?.trim() ? { focus: focus.trim() } : {})
      })
      get().done({ sessionId, snapshot, report })
      return { ok: true, snapshot, report }
    } catch (error) {
      set((s) => ({ running: { ...s.running, [sessionId]: null } }))
      return failure(error)
    }
  },

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

  started({ sessionId, type, messages }) {
    set((s) => ({ running: { ...s.running, [sessionId]: { type, messages, text: '' } } }))
  },

  progress({ sessionId, delta }) {
    const running = get().running[sessionId]
    if (!running) return
    set((s) => ({ running: { ...s.running, [sessionId]: { ...running, text: running.text + delta } } }))
  },

  done({ sessionId, snapshot }) {
    loadSeqs.set(sessionId, (loadSeqs.get(sessionId) ?? 0) + 1) // an older load must not undo this
    set((s) => ({
      active: { ...s.active, [sessionId]: snapshot },
      running: { ...s.running, [sessionId]: null }
    }))
  },

  failed({ sessionId }) {
    set((s) => ({ running: { ...s.running, [sessionId]: null } }))
  },

  forget(sessionId) {
    set((s) => {
      const { [sessionId]: _a, ...active } = s.active
      const { [sessionId]: _r, ...running } = s.running
      const { [sessionId]: _e, ...expanded } = s.expanded
      return { active, running, expanded }
    })
  },

  reloadAll() {
    for (const sessionId of Object.keys(get().active)) void get().load(sessionId)
  }
}))

/** Messages up to this seq are represented by the active summary (0: none). */
export function useSummaryCutoff(sessionId: string): number {
  return useCompressionStore((s) => s.active[sessionId]?.cutoffSeq ?? 0)
}
