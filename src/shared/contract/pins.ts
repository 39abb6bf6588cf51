import { z } from 'zod'
import { chatMessageSchema } from '../domain/chat-message'
import { route } from './define'

export const pinRoutes = {
  /**
   * Pins a message (sent verbatim in every request, never summarized away) or unpins it; the
   * message comes back and through chat.message. A pin that would take the chat's pins past the
   * share set in Settings is refused (`conflict`) with a sentence naming both numbers.
   */
  'chat.pin': route(
    z.object({ sessionId: z.string().min(1), messageId: z.string().min(1), pinned: z.boolean() }).strict(),
    z.object({ message: chatMessageSchema })
  ),
  /** The chat's pinned messages on its path, oldest first (few: together they fit a share of the budget). */
  'chat.pins': route(
    z.object({ sessionId: z.string().min(1) }).strict(),
    z.object({ messages: z.array(chatMessageSchema) })
  )
}
