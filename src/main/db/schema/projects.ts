import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Chats grouped by the user; a project may let Recall reach across its chats (DESIGN §12). */
export const projects = sqliteTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Recall in a chat of this project may bring back passages of its other chats. */
  recallAcrossChats: integer('recall_across_chats', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull()
})

export type ProjectRow = typeof projects.$inferSelect
