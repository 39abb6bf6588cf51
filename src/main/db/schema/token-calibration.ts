import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Per-model correction of local token estimates, learned from provider-reported usage (DESIGN §4).
 * Internal state, not a user setting: it has its own table so settings never see it.
 */
export const tokenCalibration = sqliteTable('token_calibration', {
  /** `provider:modelId` */
  modelKey: text('model_key').primaryKey(),
  factor: real('factor').notNull(),
  samples: integer('samples').notNull(),
  /** How far replies strayed from the factor (a moving average of |reported/estimated − factor|). */
  spread: real('spread').notNull().default(0),
  updatedAt: integer('updated_at').notNull()
})
