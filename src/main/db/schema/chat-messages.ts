import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { MessageError, MessagePart } from '../../../shared/domain/chat-message'
import { sessions } from './sessions'

export const chatMessages = sqliteTable(
  'chat_messages',
  {
    /**
     * An INTEGER PRIMARY KEY is a stable rowid (VACUUM may renumber an implicit one); the
     * full-text index is keyed by it.
     */
    rid: integer('rid').primaryKey(),
    /** UUIDv7: sortable, the id every other table and the renderer use. */
    id: text('id').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['system', 'user', 'assistant', 'tool'] }).notNull(),
    parts: text('parts', { mode: 'json' }).$type<MessagePart[]>().notNull(),
    status: text('status', { enum: ['complete', 'streaming', 'error', 'aborted'] }).notNull(),
    error: text('error', { mode: 'json' }).$type<MessageError>(),
    tokenCount: integer('token_count'),
    tokenCounter: text('token_counter'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    createdAt: integer('created_at').notNull()
  },
  (t) => [
    uniqueIndex('chat_messages_id_idx').on(t.id),
    uniqueIndex('chat_messages_session_seq_idx').on(t.sessionId, t.seq),
    index('chat_messages_session_created_idx').on(t.sessionId, t.createdAt)
  ]
)

export type ChatMessageRow = typeof chatMessages.$inferSelect
export type NewChatMessageRow = typeof chatMessages.$inferInsert
