import { z } from 'zod'
import { chatMessageSchema, MAX_MESSAGE_CHARS } from '../domain/chat-message'
import { route } from './define'

export const messageTextSchema = z
  .string()
  .refine((t) => t.trim().length > 0, 'Message cannot be empty')
  .refine(
    (t) => t.length <= MAX_MESSAGE_CHARS,
    `Message is too long (${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters at most)`
  )

export const chatRoutes = {
  'chat.messages': route(z.object({ sessionId: z.string().min(1) }).strict(), z.array(chatMessageSchema)),
  'chat.send': route(
    z.object({ sessionId: z.string().min(1), text: messageTextSchema }).strict(),
    z.object({ message: chatMessageSchema })
  )
}

export const chatEvents = {
  'chat.message': z.object({ message: chatMessageSchema })
}
