import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { sessions } from './sessions'

/**
 * Sums of the stored token counts of each chat's request history (what the context totals add
 * up), per block of 1,024 seqs and per counter, kept by triggers on `chat_messages`
 * (`drizzle/0020_chat_count_block_triggers.sql`): a request reads a 100,000-message chat's totals
 * from ~100 rows instead of summing every message. Block -1 marks a chat whose blocks are kept;
 * new chats get it when created, older ones when first read (`count-blocks-repo.ts`).
 */
export const chatCountBlocks = sqliteTable(
  'chat_count_blocks',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** seq >> 10; -1 is the chat's marker row. */
    block: integer('block').notNull(),
    /** `token_counter`, '' for messages without one. */
    counter: text('counter').notNull(),
    messages: integer('messages').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    /** Messages with a stored count. */
    counted: integer('counted').notNull().default(0)
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.block, t.counter] })]
)
