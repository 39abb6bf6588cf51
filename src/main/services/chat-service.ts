import type { ChatMessage } from '../../shared/domain/chat-message'
import { appendMessage, listMessages } from '../db/repositories/messages-repo'
import type { ServiceDeps } from './service-deps'
import { DEFAULT_SESSION_TITLE, type SessionsService } from './sessions-service'

const AUTO_TITLE_CHARS = 60

/** A title from the first line of the first message, cut at a word boundary. */
export function titleFromText(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim()
  if (line.length <= AUTO_TITLE_CHARS) return line
  const cut = line.slice(0, AUTO_TITLE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${(space > AUTO_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

export type ChatService = ReturnType<typeof createChatService>

export function createChatService(deps: ServiceDeps & { sessions: SessionsService }) {
  const { db, clock, ids, emit, sessions } = deps

  return {
    messages(sessionId: string): ChatMessage[] {
      sessions.get(sessionId)
      return listMessages(db, sessionId)
    },

    /**
     * Stores the user's message before anything else happens, so nothing typed is ever lost.
     * Replies come from a provider (a later capability); until then the message is only stored.
     */
    send(sessionId: string, text: string): { message: ChatMessage } {
      const message = db.transaction((tx) => {
        const session = sessions.get(sessionId)
        const stored = appendMessage(tx, {
          id: ids(),
          sessionId,
          role: 'user',
          parts: [{ type: 'text', text }],
          status: 'complete',
          createdAt: clock.now()
        })
        const isFirst = stored.seq === 1 && session.title === DEFAULT_SESSION_TITLE
        sessions.touch(sessionId, isFirst ? { title: titleFromText(text) } : {})
        return stored
      })
      emit('chat.message', { message })
      return { message }
    }
  }
}
