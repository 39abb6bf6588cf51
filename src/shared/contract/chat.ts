import { z } from 'zod'
import {
  chatMessageSchema,
  MAX_MESSAGE_CHARS,
  MESSAGE_TOO_LONG,
  withoutControlCharacters
} from '../domain/chat-message'
import { MAX_ATTACHMENTS_PER_MESSAGE, TOO_MANY_ATTACHMENTS } from '../domain/attachments'
import { sentAttachmentSchema } from './attachments'
import { route } from './define'
import { messagePageInput, messagePageOutput } from './message-page'

export const messageTextSchema = z
  .string()
  .refine((t) => t.trim().length > 0, 'Message cannot be empty')
  .refine((t) => t.length <= MAX_MESSAGE_CHARS, MESSAGE_TOO_LONG)
  .transform(withoutControlCharacters)

const sessionInput = z.object({ sessionId: z.string().min(1) }).strict()

export const chatRoutes = {
  /** A page of the conversation (the newest messages unless a cursor says where); never the whole history. */
  'chat.messages': route(messagePageInput, messagePageOutput(chatMessageSchema)),
  /** Stores the message, then streams the reply through chat.delta / chat.message events. */
  'chat.send': route(
    z
      .object({
        sessionId: z.string().min(1),
        text: z
          .string()
          .refine((t) => t.length <= MAX_MESSAGE_CHARS, MESSAGE_TOO_LONG)
          .transform(withoutControlCharacters),
        /** Files uploaded with attachments.upload; a message with attachments may have no text. */
        attachments: z.array(sentAttachmentSchema).max(MAX_ATTACHMENTS_PER_MESSAGE, TOO_MANY_ATTACHMENTS).optional()
      })
      .strict()
      .refine((m) => m.text.trim().length > 0 || (m.attachments?.length ?? 0) > 0, {
        message: 'Message cannot be empty',
        path: ['text']
      }),
    z.object({ message: chatMessageSchema, reply: chatMessageSchema })
  ),
  'chat.retry': route(sessionInput, z.object({ reply: chatMessageSchema })),
  /** A new reply in place of this one; the old one and the turns after it stay as the previous version. */
  'chat.regenerate': route(
    z.object({ sessionId: z.string().min(1), messageId: z.string().min(1) }).strict(),
    z.object({ reply: chatMessageSchema })
  ),
  /** Sends an edited copy of one of the user's messages; the original and its turns stay as the previous version. */
  'chat.edit': route(
    z.object({ sessionId: z.string().min(1), messageId: z.string().min(1), text: messageTextSchema }).strict(),
    z.object({ message: chatMessageSchema, reply: chatMessageSchema })
  ),
  /**
   * Puts another version of a message (and the turns that followed it) in use; returns the page of
   * the conversation from that message on (what changed; everything before it is as it was).
   */
  'chat.version': route(
    z
      .object({ sessionId: z.string().min(1), messageId: z.string().min(1), number: z.number().int().positive() })
      .strict(),
    messagePageOutput(chatMessageSchema)
  ),
  'chat.stop': route(sessionInput, z.object({ stopped: z.boolean() }))
}

export const chatEvents = {
  /** A message was created or changed (status, final text, token counts). */
  'chat.message': z.object({ message: chatMessageSchema }),
  /** More text of a streaming reply. */
  'chat.delta': z.object({ sessionId: z.string(), messageId: z.string(), delta: z.string() }),
  /** Something the chat learned that the user should know (a server's window smaller than the one set). */
  'chat.notice': z.object({ sessionId: z.string(), text: z.string() })
}
