import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { enumValues } from './enum-values'
import {
  messageRoleSchema,
  messageStatusSchema,
  type MessageError,
  type MessagePart
} from '../../../shared/domain/chat-message'
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
    role: text('role', { enum: enumValues(messageRoleSchema) }).notNull(),
    parts: text('parts', { mode: 'json' }).$type<MessagePart[]>().notNull(),
    status: text('status', { enum: enumValues(messageStatusSchema) }).notNull(),
    error: text('error', { mode: 'json' }).$type<MessageError>(),
    tokenCount: integer('token_count'),
    tokenCounter: text('token_counter'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    createdAt: integer('created_at').notNull(),
    /** Tokens cut from the middle of this message when it was sent, because it was larger than the window allows. */
    sentCutTokens: integer('sent_cut_tokens'),
    /** On a reply: how many of the chat's oldest unsummarized messages its request could not carry (auto-compression off or failed). */
    sentWithoutMessages: integer('sent_without_messages'),
    /**
     * Versions: the first version's id on every version of a message (a regenerated reply, an edited
     * user message); null while it has only one.
     */
    versionGroup: text('version_group'),
    /**
     * Not in the version in use: the id of the version whose turns this message belongs to (that
     * version's own message included). null = on the conversation's path.
     */
    hiddenIn: text('hidden_in'),
    /** Kept by the repository with `parts`: what context accounting needs without reading them. */
    partCount: integer('part_count').notNull().default(0),
    hasToolParts: integer('has_tool_parts', { mode: 'boolean' }).notNull().default(false),
    /** When the user pinned this version of the message (sent verbatim in every request); null = not pinned. */
    pinnedAt: integer('pinned_at'),
    /** On a reply: input tokens the provider reported reading from its prompt cache (null: it said nothing). */
    cacheReadTokens: integer('cache_read_tokens'),
    /** On a reply: input tokens the provider reported writing to its prompt cache (Anthropic). */
    cacheWriteTokens: integer('cache_write_tokens')
  },
  (t) => [
    uniqueIndex('chat_messages_id_idx').on(t.id),
    uniqueIndex('chat_messages_session_seq_idx').on(t.sessionId, t.seq),
    index('chat_messages_session_created_idx').on(t.sessionId, t.createdAt),
    // Covers the context heads query, so a long chat is accounted for without touching its text.
    index('chat_messages_context_idx').on(
      t.sessionId,
      t.seq,
      t.status,
      t.role,
      t.tokenCount,
      t.tokenCounter,
      t.partCount,
      t.hasToolParts,
      t.createdAt,
      t.id,
      t.hiddenIn
    ),
    index('chat_messages_hidden_in_idx').on(t.hiddenIn),
    index('chat_messages_version_group_idx').on(t.versionGroup),
    // Every request reads a chat's pins: a partial index keeps that a lookup whatever the chat's length.
    index('chat_messages_pinned_idx')
      .on(t.sessionId, t.seq)
      .where(sql`${t.pinnedAt} IS NOT NULL`)
  ]
)

export type ChatMessageRow = typeof chatMessages.$inferSelect
export type NewChatMessageRow = typeof chatMessages.$inferInsert
