import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { messageText } from '../../lib/message-text'

/** A chat's loaded stretch of messages, as the chat pane shows it, and how it is paged. */
export interface Thread {
  /** The loaded stretch of the conversation (a page or a few), oldest first. */
  messages: ChatMessage[]
  status: 'loading' | 'ready' | 'error'
  error: string | null
  /** The chat has older messages than those loaded: scrolling up loads them. */
  hasOlder: boolean
  /** The chat has newer messages than those loaded (it was opened at an older one). */
  hasNewer: boolean
  /** A page is on its way at that end. */
  loadingOlder: boolean
  loadingNewer: boolean
  /** Loading a page at either end failed; scrolling there again tries again. */
  pageError: string | null
}

export interface Page {
  messages: ChatMessage[]
  hasOlder: boolean
  hasNewer: boolean
}

/** An incoming copy wins, except a 'streaming' copy that knows less text than the deltas already shown. */
export function newer(current: ChatMessage | undefined, incoming: ChatMessage): ChatMessage {
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
export function merge(
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

export const emptyThread = (messages: ChatMessage[] = []): Thread => ({
  messages,
  status: 'loading',
  error: null,
  hasOlder: false,
  hasNewer: false,
  loadingOlder: false,
  loadingNewer: false,
  pageError: null
})

/** Whether a message belongs in the loaded stretch: not before it while older pages are missing, nor after it while newer are. */
export function inLoadedStretch(thread: Thread, message: ChatMessage): boolean {
  const first = thread.messages[0]
  const last = thread.messages[thread.messages.length - 1]
  if (thread.messages.some((m) => m.id === message.id)) return true
  if (thread.hasNewer && last && message.seq > last.seq) return false
  if (thread.hasOlder && first && message.seq < first.seq) return false
  return true
}

/**
 * A page in place of what is loaded. Copies events delivered while it was read (`changed`) win, and
 * such messages newer than the page's end stay (a reply that streamed in meanwhile).
 */
export function pageInPlace(previous: readonly ChatMessage[], page: Page, changed: ReadonlySet<string>): ChatMessage[] {
  const start = page.messages[0]?.seq ?? -Infinity
  const fresh = previous.filter(
    (m) => changed.has(m.id) && m.seq >= start && (!page.hasNewer || m.seq <= (page.messages.at(-1)?.seq ?? Infinity))
  )
  return merge(fresh, page.messages, changed)
}

export function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record
  return rest
}

/** Whether the chat's reply is still streaming. */
export function isStreaming(thread: Thread | undefined): boolean {
  return thread?.messages.some((m) => m.status === 'streaming') ?? false
}

/**
 * The conversation as the server now has it from `messageId` on (a new version of it, or of a
 * message it follows): a version change takes messages off the path, which a merge would keep.
 * Everything loaded before that message is unchanged. Messages events changed meanwhile
 * (`changed`) keep what was shown, and streaming text shown from deltas is kept where the copy
 * knows less.
 */
export function replacedFrom(thread: Thread, messageId: string, page: Page, changed: ReadonlySet<string>): Thread {
  const at = thread.messages.findIndex((m) => m.id === messageId)
  const kept = at >= 0 ? thread.messages.slice(0, at) : []
  const current = new Map(thread.messages.map((m) => [m.id, m]))
  const next = page.messages.map((m) =>
    changed.has(m.id) && current.has(m.id) ? current.get(m.id)! : newer(current.get(m.id), m)
  )
  return {
    ...thread,
    messages: [...kept, ...next],
    status: 'ready',
    error: null,
    hasOlder: at > 0 ? thread.hasOlder : page.hasOlder,
    hasNewer: page.hasNewer,
    loadingOlder: false,
    loadingNewer: false
  }
}

/** A streaming message with the next piece of its text (a delta) added to its last text part. */
export function withDelta(message: ChatMessage, delta: string): ChatMessage {
  const parts = [...message.parts]
  const last = parts[parts.length - 1]
  if (last?.type === 'text') parts[parts.length - 1] = { ...last, text: last.text + delta }
  else parts.push({ type: 'text', text: delta })
  return { ...message, parts }
}
