import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { sessions } from './sessions'

/**
 * Which chats came from an import, by a hash of their messages: importing the same conversation
 * again is noticed. Deleting the chat forgets it, so it can be imported afresh.
 */
export const chatImports = sqliteTable(
  'chat_imports',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    contentHash: text('content_hash').notNull(),
    source: text('source').notNull(),
    importedAt: integer('imported_at').notNull()
  },
  (t) => [index('chat_imports_hash_idx').on(t.contentHash)]
)
