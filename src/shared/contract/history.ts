import { z } from 'zod'
import { chatMessageSchema } from '../domain/chat-message'
import { route } from './define'
import { messagePageInput, messagePageOutput } from './message-page'

export const historyHitSchema = z.object({
  messageId: z.string(),
  seq: z.number().int(),
  role: z.string(),
  createdAt: z.number().int(),
  /** The matching passage; matches are wrapped in \u0002 … \u0003 so the renderer can mark them safely. */
  snippet: z.string(),
  /** false when a summary stands for this message: it is not sent to the model any more. */
  inContext: z.boolean()
})
export type HistoryHit = z.infer<typeof historyHitSchema>

/** A message of another chat of the project that a reply's request recalled. */
export const crossChatRecallSchema = z.object({
  messageId: z.string(),
  sessionId: z.string(),
  chatTitle: z.string(),
  role: z.string(),
  /** The start of the message's text. */
  preview: z.string()
})
export type CrossChatRecall = z.infer<typeof crossChatRecallSchema>

export const historyRoutes = {
  /**
   * A page of every message, summarized ones included, each saying whether the model still sees it
   * (FR-6.3). The newest page unless a cursor says where.
   */
  'history.list': route(
    messagePageInput,
    messagePageOutput(
      chatMessageSchema.extend({
        inContext: z.boolean(),
        /** With the importance strategy: the turn's local score (0–10) and class (Sigma ADR-006). */
        importance: z
          .object({ score: z.number(), class: z.enum(['paradigm-shift', 'important', 'routine']) })
          .optional()
      })
    ).extend({
      /** Messages up to this seq are represented by the active summary. */
      summaryCutoffSeq: z.number().int(),
      /** How many messages of the whole chat the summary represents (not only this page's). */
      summarizedCount: z.number().int().nonnegative()
    })
  ),
  /**
   * Which summarized originals each reply's request recalled (DESIGN §11), and which messages of
   * other chats of the project (each with its chat, to be named and opened there).
   */
  'history.recalls': route(
    z.object({ sessionId: z.string().min(1) }).strict(),
    z.object({
      replies: z.array(
        z.object({ replyId: z.string(), messageIds: z.array(z.string()), crossChat: z.array(crossChatRecallSchema) })
      )
    })
  ),
  /** Full-text search over the whole history of a chat (FR-6.3.2). */
  'history.search': route(
    z
      .object({
        sessionId: z.string().min(1),
        query: z.string().trim().min(1, 'Type something to search for').max(500)
      })
      .strict(),
    z.object({ hits: z.array(historyHitSchema), total: z.number().int() })
  )
}

export const HIGHLIGHT_START = '\u0002'
export const HIGHLIGHT_END = '\u0003'
