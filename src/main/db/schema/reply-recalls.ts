import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { chatMessages } from './chat-messages'
import { sessions } from './sessions'

/**
 * Which summarized originals a reply's request recalled (DESIGN §11), shown under the reply and in full
 * history, and the passages it recalled from other chats of the project (shown under the reply).
 */
export const replyRecalls = sqliteTable(
  'reply_recalls',
  {
    replyId: text('reply_id')
      .primaryKey()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The recalled message ids, in time order. */
    messageIds: text('message_ids', { mode: 'json' }).$type<string[]>().notNull(),
    /**
     * Messages recalled from other chats of the project, in the order the request carried them
     * (ids of other chats' messages: never this chat's; one deleted since is skipped when read).
     */
    crossChatIds: text('cross_chat_ids', { mode: 'json' }).$type<string[]>().notNull().default([])
  },
  (t) => [index('reply_recalls_session_idx').on(t.sessionId)]
)

export type ReplyRecallRow = typeof replyRecalls.$inferSelect
