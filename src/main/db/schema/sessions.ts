import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { enumValues } from './enum-values'
import { providerIdSchema } from '../../../shared/domain/provider'
import { strategySchema } from '../../../shared/domain/session'
import { projects } from './projects'

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    provider: text('provider', { enum: enumValues(providerIdSchema) }),
    modelId: text('model_id'),
    /** null = inherit the global setting */
    strategy: text('strategy', { enum: enumValues(strategySchema) }),
    /** null = inherit the global setting */
    autoCompress: integer('auto_compress', { mode: 'boolean' }),
    /** null = inherit the global setting */
    recall: integer('recall', { mode: 'boolean' }),
    /** null = inherit the global setting */
    reviewSummaries: integer('review_summaries', { mode: 'boolean' }),
    systemPrompt: text('system_prompt'),
    /** This chat's context window and reply reserve; null = the model's. */
    contextWindow: integer('context_window'),
    maxOutput: integer('max_output'),
    /** This chat's compression threshold in percent; null = its model's or the global one. */
    thresholdPercent: integer('threshold_percent'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    archived: integer('archived', { mode: 'boolean' }).notNull().default(false),
    /** The project the chat belongs to; deleting the project leaves the chat unfiled. */
    projectId: text('project_id').references(() => projects.id, { onDelete: 'set null' }),
    /** Recall from the project's other chats; null = as the project says. */
    recallAcrossChats: integer('recall_across_chats', { mode: 'boolean' })
  },
  (t) => [index('sessions_updated_at_idx').on(t.updatedAt)]
)

export type SessionRow = typeof sessions.$inferSelect
export type NewSessionRow = typeof sessions.$inferInsert
