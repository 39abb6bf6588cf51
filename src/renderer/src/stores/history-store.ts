import { create } from 'zustand'
import type { HistoryHit, RouteOutput } from '../../../shared/contract'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'

const SEARCH_DEBOUNCE_MS = 200

export type HistoryMessage = RouteOutput<'history.list'>['messages'][number]

interface HistoryState {
  /** The chat whose full history is open (the "Full history" dialog), or null. */
  sessionId: string | null
  /** The loaded stretch of the history (a page or a few), oldest first. */
  messages: HistoryMessage[]
  summaryCutoffSeq: number
  /** How many messages of the whole chat the summary represents. */
  summarizedCount: number
  hasOlder: boolean
  hasNewer: boolean
  loadingOlder: boolean
  loadingNewer: boolean
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
  /** The newest page, in place of what is loaded. */
  load(): Promise<void>
  /** The page around a message (a search hit, a recalled message), unless it is loaded already. */
  loadAround(messageId: string): Promise<void>
  loadOlder(): Promise<void>
  loadNewer(): Promise<void>
  setQuery(query: string): void
  /** The open chat changed (new messages, a summary): refetch what is shown. */
  changed(sessionId: string): void
}

/** Bumped by every load that replaces the loaded stretch; pages that arrive after one are dropped. */
let listSeq = 0
let searchSeq = 0
let searchTimer: ReturnType<typeof setTimeout> | undefined
let reloadTimer: ReturnType<typeof setTimeout> | undefined

/** inContext follows the summary of the whole chat: re-marked when it changes. */
const marked = (messages: HistoryMessage[], cutoff: number) =>
  messages.some((m) => m.inContext !== m.seq > cutoff)
    ? messages.map((m) => ({ ...m, inContext: m.seq > cutoff }))
    : messages

export const useHistoryStore = create<HistoryState>()((set, get) => {
  type Cursor = { before?: number; after?: number; around?: string }

  /** A page in place of the loaded stretch. */
  async function replace(cursor: Cursor): Promise<void> {
    const sessionId = get().sessionId
    if (!sessionId) return
    const seq = ++listSeq
    try {
      const page = await api.request('history.list', { sessionId, ...cursor })
      if (seq !== listSeq) return
      set({ ...page, loadingOlder: false, loadingNewer: false, status: 'ready', error: null })
    } catch (error) {
      if (seq !== listSeq) return
      set({ status: get().messages.length > 0 ? 'ready' : 'error', error: errorMessage(error) })
    }
  }

  /** The page at one end of the loaded stretch. */
  async function extend(end: 'older' | 'newer'): Promise<void> {
    const { sessionId, messages, hasOlder, hasNewer, loadingOlder, loadingNewer, status } = get()
    if (!sessionId || messages.length === 0 || status !== 'ready') return
    if (end === 'older' ? !hasOlder || loadingOlder : !hasNewer || loadingNewer) return
    const seq = listSeq
    const flag = end === 'older' ? 'loadingOlder' : 'loadingNewer'
    set({ [flag]: true })
    try {
      const cursor = end === 'older' ? { before: messages[0]!.seq } : { after: messages[messages.length - 1]!.seq }
      const page = await api.request('history.list', { sessionId, ...cursor })
      if (seq !== listSeq) return
      const current = get().messages
      set({
        messages: marked(
          end === 'older' ? [...page.messages, ...current] : [...current, ...page.messages],
          page.summaryCutoffSeq
        ),
        summaryCutoffSeq: page.summaryCutoffSeq,
        summarizedCount: page.summarizedCount,
        [flag]: false,
        ...(end === 'older' ? { hasOlder: page.hasOlder } : { hasNewer: page.hasNewer })
      })
    } catch (error) {
      if (seq !== listSeq) return
      set({ [flag]: false, error: errorMessage(error) })
    }
  }

  /**
   * After new messages or a summary: re-reads the newest end of the loaded stretch (its last few
   * messages and whatever came after them) and re-marks every loaded message by the summary's cutoff.
   */
  async function refresh(): Promise<void> {
    const { sessionId, messages, hasNewer } = get()
    if (!sessionId) return
    if (messages.length === 0) return get().load()
    const seq = listSeq
    // A reply that was streaming may have finished: the last few are read again.
    const from = messages[Math.max(0, messages.length - 20)]!
    try {
      const page = await api.request(
        'history.list',
        hasNewer
          ? { sessionId, after: messages[messages.length - 1]!.seq, limit: 1 }
          : { sessionId, after: from.seq - 1 }
      )
      if (seq !== listSeq) return
      const current = get().messages
      const kept = hasNewer ? current : current.filter((m) => m.seq < from.seq)
      set({
        messages: marked(hasNewer ? kept : [...kept, ...page.messages], page.summaryCutoffSeq),
        summaryCutoffSeq: page.summaryCutoffSeq,
        summarizedCount: page.summarizedCount,
        hasNewer: hasNewer || page.hasNewer,
        error: null
      })
    } catch (error) {
      if (seq !== listSeq) return
      set({ error: errorMessage(error) })
    }
  }

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
    summarizedCount: 0,
    hasOlder: false,
    hasNewer: false,
    loadingOlder: false,
    loadingNewer: false,
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
        summarizedCount: 0,
        hasOlder: false,
        hasNewer: false,
        loadingOlder: false,
        loadingNewer: false,
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

    load: () => replace({}),

    async loadAround(messageId) {
      if (get().messages.some((m) => m.id === messageId)) return
      await replace({ around: messageId })
    },

    loadOlder: () => extend('older'),
    loadNewer: () => extend('newer'),

    setQuery(query) {
      set({ query })
      clearTimeout(searchTimer)
      searchTimer = setTimeout(() => void search(), query.trim() === '' ? 0 : SEARCH_DEBOUNCE_MS)
    },

    changed(sessionId) {
      if (get().sessionId !== sessionId) return
      clearTimeout(reloadTimer)
      reloadTimer = setTimeout(() => {
        void refresh()
        if (get().query.trim() !== '') void search()
      }, 100)
    }
  }
})
