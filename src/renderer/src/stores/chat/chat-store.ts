import { create } from 'zustand'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { api } from '../../api/client'
import { errorMessage, isApiError } from '../../api/api-error'
import {
  emptyThread,
  inLoadedStretch,
  merge,
  pageInPlace,
  replacedFrom,
  withDelta,
  without,
  type Page,
  type Thread
} from './thread'

interface ChatState {
  threads: Record<string, Thread>
  /** What is typed in each chat's composer, kept while switching chats. */
  drafts: Record<string, string>
  sending: Record<string, boolean>
  sendErrors: Record<string, string | null>
  /** Per chat, the message the composer's draft edits (↑ in an empty box put it back): sending makes a new version of it. */
  editing: Record<string, string>
  /** The composer edits `messageId` (null: it writes a new message again). */
  setEditing(sessionId: string, messageId: string | null): void
  /** Loads the newest page (the chat opens at its newest message). */
  load(sessionId: string): Promise<void>
  /** Loads the newest page unless the chat is loaded or on its way (opening a chat). */
  loadUnlessLoaded(sessionId: string): void
  /** Loads the page around a message (a search hit), in place of what is loaded. Resolves false if it is not there. */
  loadAround(sessionId: string, messageId: string): Promise<boolean>
  /** The page before the oldest message loaded. */
  loadOlder(sessionId: string): Promise<void>
  /** The page after the newest message loaded, while the newest of the chat is not. */
  loadNewer(sessionId: string): Promise<void>
  /** A 'chat.message' event: the newest word on that message. */
  receive(message: ChatMessage): void
  /**
   * A message from a response (chat.send, chat.retry). Events may already have delivered a newer
   * state of it (a reply can fail before the response arrives), so it only fills in what is unknown.
   */
  adopt(message: ChatMessage): void
  /** More text of a streaming reply ('chat.delta'). */
  appendDelta(sessionId: string, messageId: string, delta: string): void
  setDraft(sessionId: string, text: string): void
  /** Sends the draft (with the files attached to it); keeps it and records the error if sending fails. Resolves with the error, if any. */
  send(sessionId: string, attachments?: { hash: string; filename: string }[]): Promise<string | null>
  /** Stops the streaming reply. Resolves with the error, if any. */
  stop(sessionId: string): Promise<string | null>
  /** Runs the last reply again after an error or a stop. Resolves with the error, if any. */
  retry(sessionId: string): Promise<string | null>
  /** A new reply in place of `messageId`, the old one kept as the previous version. Resolves with the error, if any. */
  regenerate(sessionId: string, messageId: string): Promise<string | null>
  /** Sends an edited copy of a user message, the original kept as the previous version. Resolves with the error, if any. */
  edit(sessionId: string, messageId: string, text: string): Promise<string | null>
  /** Puts version `number` of a message in use. Resolves with the error, if any. */
  switchVersion(sessionId: string, messageId: string, number: number): Promise<string | null>
  forget(sessionId: string): void
  /** Reload every thread in memory (after the event stream reconnects): the newest page, or the stretch being read. */
  reloadAll(): void
}

/** Per chat being loaded: the messages events changed meanwhile, which the snapshot must not undo. */
const changedDuringLoad = new Map<string, Set<string>>()

/**
 * Per chat, bumped by every load that replaces what is shown (newest page, around a message): a page
 * that arrives after a newer replacement started is dropped.
 */
const generations = new Map<string, number>()
const bump = (sessionId: string) => {
  const next = (generations.get(sessionId) ?? 0) + 1
  generations.set(sessionId, next)
  return next
}

/** The around-load in flight per chat, so the pane and the list asking for the same jump share it. */
const aroundInFlight = new Map<string, { messageId: string; done: Promise<boolean> }>()

export const useChatStore = create<ChatState>()((set, get) => {
  /** Sends the composer's draft as a new version of the message it edits (like "Edit and resend"). */
  async function sendEdit(sessionId: string, messageId: string, text: string): Promise<string | null> {
    set((s) => ({ sending: { ...s.sending, [sessionId]: true }, sendErrors: { ...s.sendErrors, [sessionId]: null } }))
    const failure = await get().edit(sessionId, messageId, text)
    set((s) => ({
      sending: { ...s.sending, [sessionId]: false },
      sendErrors: failure ? { ...s.sendErrors, [sessionId]: failure } : s.sendErrors,
      drafts: !failure && s.drafts[sessionId] === text ? { ...s.drafts, [sessionId]: '' } : s.drafts,
      editing: failure ? s.editing : without(s.editing, sessionId)
    }))
    return failure
  }

  async function replaceFrom(sessionId: string, messageId: string, fetch: () => Promise<Page>): Promise<string | null> {
    // Events that arrive while this runs (the new reply streams, even finishes) know more than the copy.
    const changed = new Set<string>()
    changedDuringLoad.set(sessionId, changed)
    const generation = bump(sessionId)
    try {
      const page = await fetch()
      if (generations.get(sessionId) !== generation) return null
      set((s) => ({
        threads: {
          ...s.threads,
          [sessionId]: replacedFrom(s.threads[sessionId] ?? emptyThread(), messageId, page, changed)
        }
      }))
      return null
    } catch (error) {
      return errorMessage(error)
    } finally {
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
    }
  }

  /** Loads a page that replaces what is shown, unless it meets the loaded newest end (then it joins it). */
  async function loadPage(sessionId: string, cursor: { around?: string }): Promise<boolean> {
    const changed = new Set<string>()
    changedDuringLoad.set(sessionId, changed)
    const generation = bump(sessionId)
    set((s) => {
      const thread = s.threads[sessionId]
      return {
        threads: { ...s.threads, [sessionId]: { ...(thread ?? emptyThread()), status: 'loading', error: null } }
      }
    })
    try {
      const page = await api.request('chat.messages', { sessionId, ...cursor })
      if (generations.get(sessionId) !== generation) return false
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
      set((s) => {
        const thread = s.threads[sessionId] ?? emptyThread()
        const previous = thread.messages
        const last = previous[previous.length - 1]
        // The newest page again (a reconnect) over a loaded newest end it overlaps: join, keeping older pages.
        const joins =
          cursor.around === undefined &&
          !thread.hasNewer &&
          last !== undefined &&
          (!page.hasOlder || (page.messages[0]?.seq ?? Infinity) <= last.seq)
        const messages = joins ? merge(previous, page.messages, changed) : pageInPlace(previous, page, changed)
        const hasOlder = joins && previous[0] && messages[0]?.id === previous[0].id ? thread.hasOlder : page.hasOlder
        return {
          threads: {
            ...s.threads,
            [sessionId]: {
              ...thread,
              messages,
              status: 'ready',
              error: null,
              hasOlder,
              hasNewer: page.hasNewer,
              loadingOlder: false,
              loadingNewer: false,
              pageError: null
            }
          }
        }
      })
      return true
    } catch (error) {
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
      if (generations.get(sessionId) !== generation) return false
      const shown = get().threads[sessionId]?.messages.length ?? 0
      if (cursor.around !== undefined && isApiError(error) && error.code === 'not_found') {
        // The message asked for is gone (deleted, another version in use): the chat shows as it is.
        set((s) => ({
          threads: {
            ...s.threads,
            [sessionId]: { ...(s.threads[sessionId] ?? emptyThread()), status: 'ready', error: null }
          }
        }))
        if (shown === 0) void get().load(sessionId)
        return false
      }
      set((s) => {
        const thread = s.threads[sessionId] ?? emptyThread()
        return { threads: { ...s.threads, [sessionId]: { ...thread, status: 'error', error: errorMessage(error) } } }
      })
      return false
    }
  }

  /** The page at one end of what is loaded; dropped if the thread was replaced meanwhile. */
  async function loadEnd(sessionId: string, end: 'older' | 'newer'): Promise<void> {
    const thread = get().threads[sessionId]
    const flag = end === 'older' ? 'loadingOlder' : 'loadingNewer'
    const more = end === 'older' ? thread?.hasOlder : thread?.hasNewer
    if (!thread || !more || thread[flag] || thread.messages.length === 0 || thread.status !== 'ready') return
    const generation = generations.get(sessionId)
    const cursor =
      end === 'older'
        ? { before: thread.messages[0]!.seq }
        : { after: thread.messages[thread.messages.length - 1]!.seq }
    set((s) => ({
      threads: { ...s.threads, [sessionId]: { ...s.threads[sessionId]!, [flag]: true, pageError: null } }
    }))
    try {
      const page = await api.request('chat.messages', { sessionId, ...cursor })
      if (generations.get(sessionId) !== generation || !get().threads[sessionId]) return
      set((s) => {
        const current = s.threads[sessionId]!
        // What is loaded knows at least as much as the page (events kept it current).
        const messages = merge(page.messages, current.messages)
        return {
          threads: {
            ...s.threads,
            [sessionId]: {
              ...current,
              messages,
              [flag]: false,
              ...(end === 'older' ? { hasOlder: page.hasOlder } : { hasNewer: page.hasNewer })
            }
          }
        }
      })
    } catch (error) {
      if (generations.get(sessionId) !== generation || !get().threads[sessionId]) return
      set((s) => ({
        threads: {
          ...s.threads,
          [sessionId]: { ...s.threads[sessionId]!, [flag]: false, pageError: errorMessage(error) }
        }
      }))
    }
  }

  /** The seq just before a message, where the page after a new version of it starts. */
  const seqBefore = (sessionId: string, messageId: string) => {
    const message = get().threads[sessionId]?.messages.find((m) => m.id === messageId)
    return message ? message.seq - 1 : undefined
  }

  return {
    threads: {},
    drafts: {},
    editing: {},
    sending: {},
    sendErrors: {},

    async load(sessionId) {
      await loadPage(sessionId, {})
    },

    loadUnlessLoaded(sessionId) {
      const thread = get().threads[sessionId]
      if (!thread || thread.status === 'error') void loadPage(sessionId, {})
    },

    loadAround(sessionId, messageId) {
      const inFlight = aroundInFlight.get(sessionId)
      if (inFlight?.messageId === messageId) return inFlight.done
      const done = loadPage(sessionId, { around: messageId }).finally(() => {
        if (aroundInFlight.get(sessionId)?.done === done) aroundInFlight.delete(sessionId)
      })
      aroundInFlight.set(sessionId, { messageId, done })
      return done
    },

    loadOlder: (sessionId) => loadEnd(sessionId, 'older'),
    loadNewer: (sessionId) => loadEnd(sessionId, 'newer'),

    receive(message) {
      const thread = get().threads[message.sessionId]
      if (!thread) return // not open yet: its newest page is loaded when it is
      changedDuringLoad.get(message.sessionId)?.add(message.id)
      // Outside the loaded stretch: the page that holds it is read when the reader gets there.
      if (!inLoadedStretch(thread, message)) return
      set((s) => ({
        threads: { ...s.threads, [message.sessionId]: { ...thread, messages: merge(thread.messages, [message]) } }
      }))
    },

    adopt(message) {
      const thread = get().threads[message.sessionId]
      if (!thread || thread.messages.some((m) => m.id === message.id) || !inLoadedStretch(thread, message)) return
      set((s) => ({
        threads: { ...s.threads, [message.sessionId]: { ...thread, messages: merge(thread.messages, [message]) } }
      }))
    },

    appendDelta(sessionId, messageId, delta) {
      const thread = get().threads[sessionId]
      const index = thread?.messages.findIndex((m) => m.id === messageId) ?? -1
      if (!thread || index < 0) return // the final 'chat.message' carries the whole text anyway
      changedDuringLoad.get(sessionId)?.add(messageId)
      const messages = [...thread.messages]
      messages[index] = withDelta(messages[index]!, delta)
      set((s) => ({ threads: { ...s.threads, [sessionId]: { ...thread, messages } } }))
    },

    setDraft(sessionId, text) {
      set((s) => ({
        drafts: { ...s.drafts, [sessionId]: text },
        sendErrors: s.sendErrors[sessionId] ? { ...s.sendErrors, [sessionId]: null } : s.sendErrors,
        // An emptied box writes a new message again.
        editing: text === '' && s.editing[sessionId] ? without(s.editing, sessionId) : s.editing
      }))
    },

    setEditing(sessionId, messageId) {
      set((s) => ({ editing: messageId ? { ...s.editing, [sessionId]: messageId } : without(s.editing, sessionId) }))
    },

    async send(sessionId, attachments = []) {
      const text = get().drafts[sessionId] ?? ''
      if ((text.trim() === '' && attachments.length === 0) || get().sending[sessionId]) return null
      const editing = get().editing[sessionId]
      if (editing && attachments.length === 0) return sendEdit(sessionId, editing, text)
      set((s) => ({
        sending: { ...s.sending, [sessionId]: true },
        sendErrors: { ...s.sendErrors, [sessionId]: null }
      }))
      try {
        const { message, reply } = await api.request('chat.send', {
          sessionId,
          text,
          ...(attachments.length ? { attachments } : {})
        })
        get().adopt(message)
        get().adopt(reply)
        // Sent while reading an older stretch: the chat goes to its newest messages, where the reply is.
        if (get().threads[sessionId]?.hasNewer) void get().load(sessionId)
        set((s) => ({
          sending: { ...s.sending, [sessionId]: false },
          // Only clear what was sent: the draft may have changed meanwhile.
          drafts: s.drafts[sessionId] === text ? { ...s.drafts, [sessionId]: '' } : s.drafts
        }))
        return null
      } catch (error) {
        const message = errorMessage(error)
        set((s) => ({
          sending: { ...s.sending, [sessionId]: false },
          sendErrors: { ...s.sendErrors, [sessionId]: message }
        }))
        return message
      }
    },

    async stop(sessionId) {
      try {
        await api.request('chat.stop', { sessionId })
        return null
      } catch (error) {
        return errorMessage(error)
      }
    },

    async retry(sessionId) {
      try {
        const { reply } = await api.request('chat.retry', { sessionId })
        get().adopt(reply)
        return null
      } catch (error) {
        return errorMessage(error)
      }
    },

    regenerate(sessionId, messageId) {
      const after = seqBefore(sessionId, messageId)
      return replaceFrom(sessionId, messageId, async () => {
        await api.request('chat.regenerate', { sessionId, messageId })
        // The new version and what follows it: everything before the message is unchanged.
        return api.request('chat.messages', after === undefined ? { sessionId } : { sessionId, after })
      })
    },

    edit(sessionId, messageId, text) {
      const after = seqBefore(sessionId, messageId)
      return replaceFrom(sessionId, messageId, async () => {
        await api.request('chat.edit', { sessionId, messageId, text })
        return api.request('chat.messages', after === undefined ? { sessionId } : { sessionId, after })
      })
    },

    switchVersion(sessionId, messageId, number) {
      return replaceFrom(sessionId, messageId, () => api.request('chat.version', { sessionId, messageId, number }))
    },

    forget(sessionId) {
      bump(sessionId)
      set((s) => ({
        threads: without(s.threads, sessionId),
        drafts: without(s.drafts, sessionId),
        editing: without(s.editing, sessionId),
        sending: without(s.sending, sessionId),
        sendErrors: without(s.sendErrors, sessionId)
      }))
    },

    reloadAll() {
      for (const [sessionId, thread] of Object.entries(get().threads)) {
        // Reading an older stretch: reload that stretch, around its middle.
        const middle = thread.hasNewer ? thread.messages[Math.floor(thread.messages.length / 2)] : undefined
        void (middle ? get().loadAround(sessionId, middle.id) : get().load(sessionId))
      }
    }
  }
})
