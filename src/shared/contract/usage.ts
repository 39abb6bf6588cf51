import { z } from 'zod'
import { MAX_MESSAGE_CHARS } from '../domain/chat-message'
import { providerIdSchema } from '../domain/provider'
import { route } from './define'
import { crossChatPassageSchema } from './projects'

export const budgetSchema = z.object({
  window: z.number().int(),
  reservedOutput: z.number().int(),
  safetyMargin: z.number().int(),
  usable: z.number().int(),
  threshold: z.number().int(),
  thresholdPercent: z.number(),
  /** Provider tokens one counted token is taken to cost (1 when counts are the model's own). */
  scale: z.number().positive(),
  /** The usable budget and the threshold in counted tokens (what the request builder and the trigger compare). */
  countedUsable: z.number().int(),
  countedThreshold: z.number().int(),
  exact: z.boolean(),
  /** The provider's count over Distill's estimate, learned from replies (null: counts are exact, or nothing learned yet). */
  calibration: z
    .object({
      factor: z.number(),
      samples: z.number().int(),
      spread: z.number().optional(),
      from: z.string().optional()
    })
    .nullable()
})

/** What the next request of a chat costs, and the budget it must fit (the context meter). */
export const contextUsageSchema = z.object({
  sessionId: z.string(),
  provider: providerIdSchema,
  modelId: z.string(),
  modelLabel: z.string(),
  /** false when the model is not in the catalog: a small conservative window is assumed. */
  modelKnown: z.boolean(),
  /** Where the threshold in force is set (this chat, its model, or the global setting) and the percent set there. */
  thresholdSetting: z.object({ percent: z.number(), source: z.enum(['chat', 'model', 'global']) }),
  tokens: z.number().int(),
  /** The next send summarizes first: the context passed the threshold and auto-compression is on. */
  compressionDue: z.boolean(),
  /** Oldest messages the next request would leave out: the history does not fit and auto-compression is off. */
  leftOut: z.number().int().nonnegative(),
  /** About how many tokens of the draft would be cut from its middle if it were sent now (it is larger than the window allows). */
  draftCut: z.number().int(),
  breakdown: z.object({
    system: z.number().int(),
    summary: z.number().int(),
    history: z.number().int(),
    draft: z.number().int(),
    /** Summarized originals recalled for the draft (DESIGN §11). */
    recalled: z.number().int(),
    overhead: z.number().int(),
    /** Images and files in the messages sent verbatim, as each provider counts them (included in none of the above). */
    attachments: z.number().int().optional(),
    /** Pinned messages, sent verbatim in every request (included in none of the above). */
    pinned: z.number().int().optional()
  }),
  /**
   * Pinned messages: how many, their share of the usable budget and the limit set (absent when none);
   * `cutTokens`: what the next request leaves out of their middle, when they are more than the window
   * can carry (a window made smaller since they were pinned).
   */
  pins: z
    .object({
      count: z.number().int(),
      percent: z.number().int(),
      limit: z.number().int(),
      cutTokens: z.number().int().positive().optional()
    })
    .optional(),
  /** The messages recalled for the draft, in time order. */
  recalledIds: z.array(z.string()),
  /** Of those, the passages from other chats of the chat's project, and the ones left out of the next request. */
  crossChat: z
    .object({ passages: z.array(crossChatPassageSchema), leftOut: z.array(crossChatPassageSchema) })
    .optional(),
  /** Messages sent verbatim (after the summary's cutoff). */
  messages: z.number().int(),
  /** Messages the active summary stands for. */
  summarizedMessages: z.number().int(),
  /** Every count came from the provider's own tokenizer (tiktoken or its countTokens endpoint). */
  exact: z.boolean(),
  counter: z.string(),
  /** Some messages were counted for another model and are being recounted. */
  recounting: z.boolean(),
  /** How far that recount is (0–1); until it ends, those messages' counts are scaled estimates. */
  recountProgress: z.number().min(0).max(1).nullable(),
  /** The next summary, written ahead in the background so the threshold never makes a send wait. */
  preparedSummary: z
    .object({
      state: z.enum(['writing', 'ready']),
      messages: z.number().int(),
      firstSeq: z.number().int(),
      lastSeq: z.number().int(),
      tokens: z.number().int().nullable(),
      /** About what writing it cost, where the summarization model's prices are known. */
      costUsd: z.number().nonnegative().nullable()
    })
    .nullable(),
  budget: budgetSchema
})
export type ContextUsage = z.infer<typeof contextUsageSchema>

/** Input and output of some requests as their providers reported them, and their price where known. */
export const tokenUsageSchema = z.object({
  requests: z.number().int().nonnegative(),
  /** All input tokens, the cached ones included. */
  inputTokens: z.number().int().nonnegative(),
  /** Of those, read from the provider's prompt cache. */
  cacheReadTokens: z.number().int().nonnegative(),
  /** Of those, written to it (Anthropic bills a write at 1.25× the input price). */
  cacheWriteTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** US dollars at the chat model's catalog prices; null where they are unknown (local and custom models). */
  costUsd: z.number().nonnegative().nullable()
})
export type TokenUsage = z.infer<typeof tokenUsageSchema>

/** What a chat's requests took: the last reply, all replies, and the model summaries written for it. */
export const chatCostSchema = z.object({
  sessionId: z.string(),
  /** Whose prices the dollars are at. */
  modelLabel: z.string(),
  lastReply: tokenUsageSchema.nullable(),
  replies: tokenUsageSchema,
  /** Model summaries (estimated from their requests; providers bill them as uncached input). */
  summaries: tokenUsageSchema,
  /** The replies priced as if nothing came from the cache: the difference is what the cache saved. */
  withoutCacheUsd: z.number().nonnegative().nullable(),
  /** Some reply's provider said how much its cache served (servers that say nothing leave it unknown). */
  cacheReported: z.boolean()
})
export type ChatCost = z.infer<typeof chatCostSchema>

export const usageRoutes = {
  'chat.context': route(
    z
      .object({
        sessionId: z.string().min(1),
        draft: z.string().max(MAX_MESSAGE_CHARS, 'Message is too long').optional(),
        /**
         * Plan what sending the draft would recall (a search of the chat's summarized history): asked
         * when typing pauses, not on every keystroke, which stays a sum of stored counts.
         */
        recall: z.boolean().optional()
      })
      .strict(),
    contextUsageSchema
  ),
  'chat.cost': route(z.object({ sessionId: z.string().min(1) }).strict(), chatCostSchema)
}

export const usageEvents = {
  /** Stored counts of a chat changed: refetch chat.context. */
  'usage.changed': z.object({ sessionId: z.string() })
}
