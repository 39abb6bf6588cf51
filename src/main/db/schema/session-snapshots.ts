import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { enumValues } from './enum-values'
import { snapshotKindSchema, snapshotStatusSchema } from '../../../shared/domain/snapshot'
import { chatMessages } from './chat-messages'
import { sessions } from './sessions'

export const sessionSnapshots = sqliteTable(
  'session_snapshots',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: enumValues(snapshotKindSchema) }).notNull(),
    /** FR-4.2.1 content: summaryText, messageRange, compressionTimestamp, … */
    contentJson: text('content_json', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    messageCutoffId: text('message_cutoff_id').references(() => chatMessages.id),
    tokenCount: integer('token_count').notNull(),
    status: text('status', { enum: enumValues(snapshotStatusSchema) }).notNull(),
    createdAt: integer('created_at').notNull()
  },
  (t) => [index('session_snapshots_session_idx').on(t.sessionId, t.kind, t.status, t.createdAt)]
)

export type SessionSnapshotRow = typeof sessionSnapshots.$inferSelect
