import { create } from 'zustand'
import type { HistoryHit, RouteOutput } from '../../../shared/contract'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'

const SEARCH_DEBOUNCE_MS = 200

export type HistoryMessage = RouteOutput<'history.list'>['messages'][number]

interface HistoryState {
  /** The chat whose full history is open (the "Full history" dialog), or null. */
  sessionId: string | null
  messages: HistoryMessage[]
  summaryCutoffSeq: number
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  query: string
  /** The query the hits were found for (lags `query` while typing). */
  searchedQuery: string
  hits: HistoryHit[]
  total: number
  searching: boolean
  searchError: string | null
  open(sessionId: string): void
  close(): void
  load(): Promise<void>
  setQuery(query: string): void
  /** The open chat changed (new messages, a summary): refetch what is shown. */
  changed(sessionId: string): void
}

let listSeq = 0
let searchSeq = 0
let searchTimer: ReturnType<typeof setTimeout> | undefined
let reloadTimer: ReturnType<typeof setTimeout> | undefined

export const useHistoryStore = create<HistoryState>()((set, get) => {
  async function search(): Promise<void> {
    const { sessionId, query } = get()
    const trimmed = query.trim()
    const seq = ++searchSeq
    if (!sessionId || trimmed === '') {
      set({ hits: [], total: 0, searchedQuery: '', searching: false, searchError: null })
      return
    }
    set({ searching: true })
    try {
      const { hits, total } = await api.request('history.search', { sessionId, query: trimmed })
      if (seq !== searchSeq) return
      set({ hits, total, searchedQuery: trimmed, searching: false, searchError: null })
    } catch (error) {
      if (seq !== searchSeq) return
      set({ hits: [], total: 0, searchedQuery: trimmed, searching: false, searchError: errorMessage(error) })
    }
  }

  return {
    sessionId: null,
    messages: [],
    summaryCutoffSeq: 0,
    status: 'idle',
    error: null,
    query: '',
    searchedQuery: '',
    hits: [],
    total: 0,
    searching: false,
    searchError: null,

    open(sessionId) {
      clearTimeout(searchTimer)
      searchSeq++
      set({
        sessionId,
        messages: [],
        summaryCutoffSeq: 0,
        status: 'loading',
        error: null,
        query: '',
        searchedQuery: '',
        hits: [],
        total: 0,
        searching: false,
        searchError: null
      })
      void get().load()
    },

    close() {
      clearTimeout(searchTimer)
      clearTimeout(reloadTimer)
      listSeq++
      searchSeq++
      set({ sessionId: null, messages: [], status: 'idle', hits: [], total: 0, query: '', searchedQuery: '' })
    },

    async load() {
      const sessionId = get().sessionId
      if (!sessionId) return
      const seq = ++listSeq
      try {
        const { messages, summaryCutoffSeq } = await api.request('history.list', { sessionId })
        if (seq !== listSeq) return
        set({ messages, summaryCutoffSeq, status: 'ready', error: null })
      } catch (error) {
        if (seq !== listSeq) return
        set({ status: get().messages.length > 0 ? 'ready' : 'error', error: errorMessage(error) })
      }
    },

    setQuery(query) {
      set({ query })
      clearTimeout(searchTimer)
      searchTimer = setTimeout(() => void search(), query.trim() === '' ? 0 : SEARCH_DEBOUNCE_MS)
    },

    changed(sessionId) {
      if (get().sessionId !== sessionId) return
      clearTimeout(reloadTimer)
      reloadTimer = setTimeout(() => {
        void get().load()
        if (get().query.trim() !== '') void search()
      }, 100)
    }
  }
})
