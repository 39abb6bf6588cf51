import { create } from 'zustand'
import type { RouteInput } from '../../../shared/contract'
import type { SessionSearch } from '../../../shared/contract/sessions'
import type { Session, SessionSummary } from '../../../shared/domain/session'
import { api } from '../api/client'
import { errorMessage, isApiError } from '../api/api-error'
import { touchNow } from '../lib/use-now'
import { modelsListedOnce } from './providers-store'
import { useUiStore } from './ui-store'
import { mergeFirstPage } from './merge-first-page'

const SEARCH_DEBOUNCE_MS = 200
/** Chats per page of the sidebar: a few screens; scrolling near the end asks for the next. */
const LIST_PAGE = 100

interface SessionsState {
  /** The sidebar's list for the current query, most recent first (the server's order). */
  sessions: SessionSummary[]
  query: string
  /** The query the list was fetched for (lags `query` while typing). */
  listedQuery: string
  status: 'loading' | 'ready' | 'error'
  error: string | null
  /** Where the next page of the (unsearched) list starts; null when every chat is listed. */
  nextCursor: string | null
  loadingMore: boolean
  /** For a search: the chats found with their passages, and the totals (null with no search). */
  found: SessionSearch | null
  /** A chat opened from a search result, to be shown at this message once its list renders. */
  pendingJump: { sessionId: string; messageId: string } | null
  /** Opens a chat at a message (a search hit). */
  openAt(sessionId: string, messageId: string): void
  /** The message list has shown the pending jump. */
  jumpShown(): void
  /** Sessions fetched one by one, so the open chat has its title even when a search hides it. */
  details: Record<string, Session>
  load(): Promise<void>
  /** Appends the next page of the list (scrolling near its end). */
  loadMore(): Promise<void>
  setQuery(query: string): void
  fetchOne(id: string): Promise<Session | null>
  create(): Promise<Session>
  rename(id: string, title: string): Promise<Session>
  /** Changes the chat's model or system prompt. Throws the ApiError when refused. */
  update(id: string, change: Omit<RouteInput<'sessions.update'>, 'id'>): Promise<Session>
  remove(id: string): Promise<void>
  /** Reads the first page again and keeps the pages below it as shown (a chat changed). */
  refreshHead(): Promise<void>
  /** A 'sessions.changed' event arrived. */
  changed(sessionId: string, reason: 'created' | 'updated' | 'deleted'): void
}

let requestSeq = 0
let searchTimer: ReturnType<typeof setTimeout> | undefined
let reloadTimer: ReturnType<typeof setTimeout> | undefined
/** Chats changed since the list was last read (the first page read next may not hold them). */
const changedIds = new Set<string>()

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  sessions: [],
  query: '',
  listedQuery: '',
  status: 'loading',
  error: null,
  nextCursor: null,
  loadingMore: false,
  found: null,
  pendingJump: null,
  details: {},

  async load() {
    const seq = ++requestSeq
    const query = get().query.trim()
    try {
      // A search looks through message text too (the full-text index) and answers its best chats;
      // no query lists the chats a page at a time.
      const found = query ? await api.request('sessions.search', { query }) : null
      const page = found
        ? { sessions: found.results, nextCursor: null }
        : await api.request('sessions.list', { limit: LIST_PAGE })
      if (seq !== requestSeq) return // a newer request is on its way
      touchNow()
      set({
        sessions: page.sessions,
        nextCursor: page.nextCursor,
        found,
        listedQuery: query,
        status: 'ready',
        error: null
      })
    } catch (error) {
      if (seq !== requestSeq) return
      set({ status: 'error', error: errorMessage(error) })
    }
  },

  async loadMore() {
    const { nextCursor: cursor, loadingMore, listedQuery } = get()
    if (!cursor || loadingMore || listedQuery) return
    set({ loadingMore: true })
    try {
      const page = await api.request('sessions.list', { cursor, limit: LIST_PAGE })
      // The list was read again from its start meanwhile, or a search replaced it (a change to a
      // chat keeps the pages below the first, and their cursor).
      if (get().nextCursor !== cursor || get().listedQuery) return
      set((s) => {
        const listed = new Set(s.sessions.map((item) => item.id))
        return {
          sessions: [...s.sessions, ...page.sessions.filter((item) => !listed.has(item.id))],
          nextCursor: page.nextCursor
        }
      })
    } catch (error) {
      if (get().nextCursor === cursor) set({ error: errorMessage(error) })
    } finally {
      set({ loadingMore: false })
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
    else await get().refreshHead()
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
    if (reason === 'updated') changedIds.add(sessionId)
    // Several changes often arrive together (a message, then the auto-title): read once.
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => void (get().listedQuery ? get().load() : get().refreshHead()), 30)
  },

  async refreshHead() {
    const seq = ++requestSeq
    try {
      const head = await api.request('sessions.list', { limit: LIST_PAGE })
      if (seq !== requestSeq || get().listedQuery) return // a newer request is on its way
      touchNow()
      set((s) => ({ ...mergeFirstPage(s, head), status: 'ready', error: null }))
      // A chat changed without activity (a title chosen later, a model) keeps its place below the
      // first page: read that one chat.
      const inHead = new Set(head.sessions.map((item) => item.id))
      const below = [...changedIds].filter((id) => !inHead.has(id) && get().sessions.some((item) => item.id === id))
      changedIds.clear()
      const read = await Promise.allSettled(below.map((id) => api.request('sessions.get', { id })))
      for (const session of read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))) {
        set((s) => ({ sessions: s.sessions.map((item) => (item.id === session.id ? { ...item, ...session } : item)) }))
      }
    } catch (error) {
      if (seq === requestSeq) set({ error: errorMessage(error) })
    }
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
