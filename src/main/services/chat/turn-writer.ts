import type { Db, Tx } from '../../db/client'
import type { ChatMessage, MessagePart } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import { appendMessage, findMessage, type NewMessage } from '../../db/repositories/messages/messages-repo'
import { noteWrite } from '../../db/repositories/write-generation'
import { titleFromText } from './title-from-text'
import type { ChatServiceOptions } from './chat-service-options'
import type { ServiceDeps } from '../service-deps'
import { DEFAULT_SESSION_TITLE } from '../sessions/sessions-service'

/** From this length a message is written on the database's thread: ~5 ms of the event loop and more here. */
export const LONG_MESSAGE_CHARS = 128 * 1024

/**
 * How a turn is written: the user's message, then the empty reply that streams into it, with the
 * chat touched (and titled by its first message). A long message goes to the database's thread.
 */
export function createTurnWriter(
  deps: ServiceDeps & Pick<ChatServiceOptions, 'sessions' | 'reply' | 'appendOnThread'>
) {
  const { db, clock, ids, log, sessions } = deps
  /** Chats whose long message the database thread is writing. */
  const saving = new Set<string>()

  /** An empty reply, streaming, at the end of the chat (a new version of `versionGroup`, if given). */
  function emptyReply(tx: Db | Tx, sessionId: string, versionGroup?: string): ChatMessage {
    return appendMessage(tx, {
      id: ids(),
      sessionId,
      role: 'assistant',
      parts: [],
      status: 'streaming',
      createdAt: clock.now(),
      ...(versionGroup ? { versionGroup } : {})
    })
  }

  /** The row of a message the user sends (a new version of `versionGroup`, if given). */
  function userMessage(sessionId: string, text: string, files: MessagePart[], versionGroup?: string): NewMessage {
    return {
      id: ids(),
      sessionId,
      role: 'user',
      parts: [...(text.trim() !== '' || files.length === 0 ? [{ type: 'text' as const, text }] : []), ...files],
      status: 'complete',
      createdAt: clock.now(),
      ...(versionGroup ? { versionGroup } : {})
    }
  }

  /** After the user's message: the empty reply, and the chat touched (titled by its first message). */
  function replyTo(tx: Db | Tx, session: Session, message: ChatMessage, text: string, files: MessagePart[]) {
    const reply = emptyReply(tx, session.id)
    const isFirst = message.seq === 1 && session.title === DEFAULT_SESSION_TITLE
    const firstLine =
      text.trim() !== '' ? text : files.flatMap((f) => (f.type === 'attachment' ? [f.filename] : [])).join(', ')
    const touched = sessions.touch(session.id, isFirst && firstLine ? { title: titleFromText(firstLine) } : {})
    return { message, reply, session: touched }
  }

  /** Stores the user's message and an empty reply in one transaction (a new version of `versionGroup`, if given). */
  function writeTurn(sessionId: string, text: string, versionGroup?: string, files: MessagePart[] = []) {
    return db.transaction((tx) => {
      const session = sessions.get(sessionId)
      const message = appendMessage(tx, userMessage(sessionId, text, files, versionGroup))
      return replyTo(tx, session, message, text, files)
    })
  }

  /**
   * The same for a long message, written on the database's thread (its own transaction, then the
   * reply's). Nothing else is sent in the chat meanwhile (assertIdle). Should the thread fail, the
   * message is written here, unless the thread stored it before failing.
   */
  async function writeLongTurn(sessionId: string, text: string, files: MessagePart[]) {
    const onThread = deps.appendOnThread
    if (!onThread) return writeTurn(sessionId, text, undefined, files)
    // A chat that is not there is refused before anything is handed over.
    const session = sessions.get(sessionId)
    const row = userMessage(sessionId, text, files)
    saving.add(sessionId)
    let message: ChatMessage
    try {
      // Written with its count: storing the count afterwards rewrote the whole row again.
      const count = await deps.reply?.countOf(row.parts, session).catch(() => undefined)
      if (count) Object.assign(row, { tokenCount: count.tokens, tokenCounter: count.counter })
      message = await onThread(row).catch((err: unknown) => {
        log.warn('Writing a long message on the database thread failed; writing it here', err)
        return findMessage(db, row.id) ?? appendMessage(db, row)
      })
    } finally {
      saving.delete(sessionId)
    }
    // This connection's caches learn of the row the thread wrote.
    noteWrite(db, sessionId, message.seq)
    return db.transaction((tx) => replyTo(tx, sessions.get(sessionId), message, text, files))
  }

  return {
    emptyReply,
    writeTurn,
    writeLongTurn,
    /** Whether the thread is writing a long message of the chat (nothing else is sent there meanwhile). */
    saving: (sessionId: string) => saving.has(sessionId)
  }
}
