import { z } from 'zod'
import { providerIdSchema } from './provider'

export const strategySchema = z.enum(['rolling', 'tiered', 'importance'])
export type Strategy = z.infer<typeof strategySchema>

export const sessionTitleSchema = z
  .string()
  .trim()
  .min(1, 'Title cannot be empty')
  .max(200, 'Title is too long (200 characters at most)')

export const sessionSchema = z.object({
  id: z.string(),
  title: z.string(),
  provider: providerIdSchema.nullable(),
  modelId: z.string().nullable(),
  /** null = inherit the global setting */
  strategy: strategySchema.nullable(),
  /** null = inherit the global setting */
  autoCompress: z.boolean().nullable(),
  /** Recall of summarized originals; null = inherit the global setting */
  recall: z.boolean().nullable(),
  /** Ask before a summary replaces messages; null (or absent) = inherit the global setting */
  reviewSummaries: z.boolean().nullable().optional(),
  systemPrompt: z.string().nullable(),
  /** This chat's context window in tokens (e.g. a local server loaded with a smaller one); null = the model's. */
  contextWindow: z.number().int().nullable(),
  /** Tokens this chat reserves for the reply; null = the model's. */
  maxOutput: z.number().int().nullable(),
  /** This chat's compression threshold (% of the usable window); null = its model's or the global one. */
  thresholdPercent: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  archived: z.boolean(),
  /** The project the chat belongs to (null: none). */
  projectId: z.string().nullable(),
  /** Recall from the other chats of its project; null = as the project says. */
  recallAcrossChats: z.boolean().nullable()
})
export type Session = z.infer<typeof sessionSchema>

/** A session as the sidebar lists it. */
export const sessionSummarySchema = sessionSchema.extend({
  messageCount: z.number().int(),
  lastMessagePreview: z.string().nullable()
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>
