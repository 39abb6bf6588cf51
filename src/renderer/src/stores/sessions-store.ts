import { create } from 'zustand'
import type { RouteInput } from '../../../shared/contract'
import type { SessionSearchResult } from '../../../shared/contract/sessions'
import type { Session, SessionSummary } from '../../../shared/domain/session'
import { api } from '../api/client'
import { errorMessage, isApiError } from '../api/api-error'
import { touchNow } from '../lib/use-now'
import { modelsListedOnce } from './providers-store'
import { useUiStore } from './ui-store'

const SEARCH_DEBOUNCE_MS = 200

interface SessionsState {
  /** The sidebar's list for the current query, most recent first (the server's order). */
  sessions: SessionSummary[]
  query: string
  /** The query the list was fetched for (lags `query` while typing). */
  listedQuery: string
  status: 'loading' | 'ready' | 'error'
  error: string | null
  /** For a search: the message of each listed chat that matched, if one did. */
  matches: Record<string, SessionSearchResult['match']>
  /** A chat opened from a search result, to be shown at this message once its list renders. */
  pendingJump: { sessionId: string; messageId: string } | null
  /** Opens a chat at a message (a search hit). */
  openAt(sessionId: string, messageId: string): void
  /** The message list has shown the pending jump. */
  jumpShown(): void
  /** Sessions fetched one by one, so the open chat has its title even when a search hides it. */
  details: Record<string, Session>
  load(): Promise<void>
  setQuery(query: string): void
  fetchOne(id: string): Promise<Session | null>
  create(): Promise<Session>
  rename(id: string, title: string): Promise<Session>
  /** Changes the chat's model or system prompt. Throws the ApiError when refused. */
  update(id: string, change: Omit<RouteInput<'sessions.update'>, 'id'>): Promise<Session>
  remove(id: string): Promise<void>
  /** A 'sessions.changed' event arrived. */
  changed(sessionId: string, reason: 'created' | 'updated' | 'deleted'): void
}

let requestSeq = 0
let searchTimer: ReturnType<typeof setTimeout> | undefined
let reloadTimer: ReturnType<typeof setTimeout> | undefined

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  sessions: [],
  query: '',
  listedQuery: '',
  status: 'loading',
  error: null,
  matches: {},
  pendingJump: null,
  details: {},

  async load() {
    const seq = ++requestSeq
    const query = get().query.trim()
    try {
      // A search looks through message text too (the full-text index); no query lists every chat.
      const found = query ? await api.request('sessions.search', { query }) : null
      const sessions = found ?? (await api.request('sessions.list', {}))
      if (seq !== requestSeq) return // a newer request is on its way
      touchNow()
      const matches: SessionsState['matches'] = {}
      for (const item of found ?? []) matches[item.id] = item.match
      set({ sessions, matches, listedQuery: query, status: 'ready', error: null })
    } catch (error) {
      if (seq !== requestSeq) return
      set({ status: 'error', error: errorMessage(error) })
    }
  },

  setQuery(query) {
    set({ query })
    clearTimeout(searchTimer)
    searchTimer = setTimeout(() => void get().load(), query.trim() === '' ? 0 : SEARCH_DEBOUNCE_MS)
  },

  openAt(sessionId, messageId) {
    set({ pendingJump: { sessionId, messageId } })
    useUiStore.getState().openSession(sessionId)
  },

  jumpShown() {
    set({ pendingJump: null })
  },

  async fetchOne(id) {
    try {
      const session = await api.request('sessions.get', { id })
      set((s) => ({ details: { ...s.details, [id]: session } }))
      return session
    } catch (error) {
      if (isApiError(error) && error.code === 'not_found') {
        set((s) => {
          const { [id]: _gone, ...details } = s.details
          return { details }
        })
        // The open chat is gone (deleted elsewhere, or a stale "last chat" from an earlier run).
        if (useUiStore.getState().selectedSessionId === id) useUiStore.getState().deselect()
      }
      return null
    }
  },

  async create() {
    // With only a local server set up, its first listed model is the new chat's: wait for the first list.
    await modelsListedOnce()
    const session = await api.request('sessions.create', {})
    set((s) => ({ details: { ...s.details, [session.id]: session } }))
    // A new chat would be hidden by an active search: clear it.
    if (get().query !== '') get().setQuery('')
    else await get().load()
    return session
  },

  async rename(id, title) {
    const session = await api.request('sessions.rename', { id, title })
    set((s) => ({
      details: { ...s.details, [id]: session },
      sessions: s.sessions.map((item) => (item.id === id ? { ...item, title: session.title } : item))
    }))
    return session
  },

  async update(id, change) {
    const session = await api.request('sessions.update', { id, ...change })
    set((s) => ({
      details: { ...s.details, [id]: session },
      sessions: s.sessions.map((item) => (item.id === id ? { ...item, ...session } : item))
    }))
    return session
  },

  async remove(id) {
    await api.request('sessions.delete', { id })
    set((s) => {
      const { [id]: _gone, ...details } = s.details
      return { details, sessions: s.sessions.filter((item) => item.id !== id) }
    })
  },

  changed(sessionId, reason) {
    if (reason === 'deleted') {
      set((s) => {
        const { [sessionId]: _gone, ...details } = s.details
        return { details, sessions: s.sessions.filter((item) => item.id !== sessionId) }
      })
    } else if (sessionId in get().details) {
      void get().fetchOne(sessionId)
    }
    // Several changes often arrive together (a message, then the auto-title): reload once.
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => void get().load(), 30)
  }
}))

/** The title of a session from whichever copy is at hand. */
export function useSessionTitle(id: string | null): string | null {
  return useSessionsStore((s) => {
    if (!id) return null
    return s.sessions.find((item) => item.id === id)?.title ?? s.details[id]?.title ?? null
  })
}

/** The full session of the open chat (its model and system prompt), once fetched. */
export function useSessionDetails(id: string | null): Session | null {
  return useSessionsStore((s) => (id ? (s.details[id] ?? null) : null))
}
