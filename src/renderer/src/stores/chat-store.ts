import { create } from 'zustand'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'
import { messageText } from '../lib/message-text'

export interface Thread {
  messages: ChatMessage[]
  status: 'loading' | 'ready' | 'error'
  error: string | null
}

interface ChatState {
  threads: Record<string, Thread>
  /** What is typed in each chat's composer, kept while switching chats. */
  drafts: Record<string, string>
  sending: Record<string, boolean>
  sendErrors: Record<string, string | null>
  load(sessionId: string): Promise<void>
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
  /** Reload every thread in memory (after the event stream reconnects). */
  reloadAll(): void
}

/** An incoming copy wins, except a 'streaming' copy that knows less text than the deltas already shown. */
function newer(current: ChatMessage | undefined, incoming: ChatMessage): ChatMessage {
  if (
    current &&
    incoming.status === 'streaming' &&
    current.status === 'streaming' &&
    messageText(current.parts).length > messageText(incoming.parts).length
  ) {
    return { ...incoming, parts: current.parts }
  }
  return incoming
}

/** Merges incoming copies; those whose id is in `keep` stay as they are (events told us more). */
function merge(
  current: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
  keep: ReadonlySet<string> = new Set()
): ChatMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]))
  for (const message of incoming) {
    if (keep.has(message.id) && byId.has(message.id)) continue
    byId.set(message.id, newer(byId.get(message.id), message))
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq)
}

/** Per chat being loaded: the messages events changed meanwhile, which the snapshot must not undo. */
const changedDuringLoad = new Map<string, Set<string>>()

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record
  return rest
}

/** Whether the chat's reply is still streaming. */
export function isStreaming(thread: Thread | undefined): boolean {
  return thread?.messages.some((m) => m.status === 'streaming') ?? false
}

export const useChatStore = create<ChatState>()((set, get) => {
  /**
   * The conversation as the server now has it: a version switch takes messages off the path, which
   * a merge would keep. Streaming text shown from deltas is kept where the copy knows less.
   */
  async function replace(sessionId: string, fetch: () => Promise<ChatMessage[]>): Promise<string | null> {
    // Events that arrive while this runs (the new reply streams, even finishes) know more than the copy.
    const changed = new Set<string>()
    changedDuringLoad.set(sessionId, changed)
    try {
      const messages = await fetch()
      set((s) => {
        const current = new Map((s.threads[sessionId]?.messages ?? []).map((m) => [m.id, m]))
        const next = messages.map((m) => (changed.has(m.id) && current.has(m.id) ? current.get(m.id)! : newer(current.get(m.id), m)))
        return { threads: { ...s.threads, [sessionId]: { messages: next, status: 'ready', error: null } } }
      })
      return null
    } catch (error) {
      return errorMessage(error)
    } finally {
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
    }
  }

  return {
  threads: {},
  drafts: {},
  sending: {},
  sendErrors: {},

  async load(sessionId) {
    const changed = new Set<string>()
    changedDuringLoad.set(sessionId, changed)
    set((s) => ({
      threads: {
        ...s.threads,
        [sessionId]: { messages: s.threads[sessionId]?.messages ?? [], status: 'loading', error: null }
      }
    }))
    try {
      const messages = await api.request('chat.messages', { sessionId })
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
      set((s) => ({
        threads: {
          ...s.threads,
          [sessionId]: {
            messages: merge(s.threads[sessionId]?.messages ?? [], messages, changed),
            status: 'ready',
            error: null
          }
        }
      }))
    } catch (error) {
      if (changedDuringLoad.get(sessionId) === changed) changedDuringLoad.delete(sessionId)
      set((s) => ({
        threads: {
          ...s.threads,
          [sessionId]: { messages: s.threads[sessionId]?.messages ?? [], status: 'error', error: errorMessage(error) }
        }
      }))
    }
  },

  receive(message) {
    const thread = get().threads[message.sessionId]
    if (!thread) return // not open yet: loaded in full when it is
    changedDuringLoad.get(message.sessionId)?.add(message.id)
    set((s) => ({
      threads: { ...s.threads, [message.sessionId]: { ...thread, messages: merge(thread.messages, [message]) } }
    }))
  },

  adopt(message) {
    const thread = get().threads[message.sessionId]
    if (!thread || thread.messages.some((m) => m.id === message.id)) return
    set((s) => ({
      threads: { ...s.threads, [message.sessionId]: { ...thread, messages: merge(thread.messages, [message]) } }
    }))
  },

  appendDelta(sessionId, messageId, delta) {
    const thread = get().threads[sessionId]
    const index = thread?.messages.findIndex((m) => m.id === messageId) ?? -1
    if (!thread || index < 0) return // the final 'chat.message' carries the whole text anyway
    changedDuringLoad.get(sessionId)?.add(messageId)
    const message = thread.messages[index]!
    const parts = [...message.parts]
    const last = parts[parts.length - 1]
    if (last?.type === 'text') parts[parts.length - 1] = { ...last, text: last.text + delta }
    else parts.push({ type: 'text', text: delta })
    const messages = [...thread.messages]
    messages[index] = { ...message, parts }
    set((s) => ({ threads: { ...s.threads, [sessionId]: { ...thread, messages } } }))
  },

  setDraft(sessionId, text) {
    set((s) => ({
      drafts: { ...s.drafts, [sessionId]: text },
      sendErrors: s.sendErrors[sessionId] ? { ...s.sendErrors, [sessionId]: null } : s.sendErrors
    }))
  },

  async send(sessionId, attachments = []) {
    const text = get().drafts[sessionId] ?? ''
    if ((text.trim() === '' && attachments.length === 0) || get().sending[sessionId]) return null
    set((s) => ({
      sending: { ...s.sending, [sessionId]: true },
      sendErrors: { ...s.sendErrors, [sessionId]: null }
    }))
    try {
      const { message, reply } = await api.request('chat.send', { sessionId, text, ...(attachments.length ? { attachments } : {}) })
      get().adopt(message)
      get().adopt(reply)
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
    return replace(sessionId, async () => {
      await api.request('chat.regenerate', { sessionId, messageId })
      return api.request('chat.messages', { sessionId })
    })
  },

  edit(sessionId, messageId, text) {
    return replace(sessionId, async () => {
      await api.request('chat.edit', { sessionId, messageId, text })
      return api.request('chat.messages', { sessionId })
    })
  },

  switchVersion(sessionId, messageId, number) {
    return replace(sessionId, () => api.request('chat.version', { sessionId, messageId, number }))
  },

  forget(sessionId) {
    set((s) => ({
      threads: without(s.threads, sessionId),
      drafts: without(s.drafts, sessionId),
      sending: without(s.sending, sessionId),
      sendErrors: without(s.sendErrors, sessionId)
    }))
  },

  reloadAll() {
    for (const sessionId of Object.keys(get().threads)) void get().load(sessionId)
  }
}
})
