import { z } from 'zod'
import { strategySchema } from './session'

export const summarizerKindSchema = z.enum(['llm', 'extractive', 'truncate'])
export type SummarizerKind = z.infer<typeof summarizerKindSchema>

/** What started a compression: the trigger before a request, the user, or a regenerate of the active summary. */
export const runTypeSchema = z.enum(['auto', 'manual', 'regenerate'])
export type RunType = z.infer<typeof runTypeSchema>

/** FR-4.2.1, plus what undo, regenerate and the UI need to explain a summary. */
export const summaryContentSchema = z.object({
  summaryText: z.string(),
  messageRange: z.object({ firstMessageId: z.string(), lastMessageId: z.string() }),
  compressionTimestamp: z.string(),
  compressionType: z.enum(['auto', 'manual']),
  originalTokenCount: z.number().int(),
  summaryTokenCount: z.number().int(),
  messagesIncluded: z.number().int(),
  strategy: strategySchema,
  /** The model id that wrote it, or 'extractive' / 'truncate'. */
  summarizer: z.string(),
  /** What Undo re-activates: the summary this one replaced (null: none). */
  restoresSnapshotId: z.string().nullable().optional(),
  /**
   * The summary this one was cascaded from (null: made from messages only). A regenerated summary
   * keeps the base of the version it replaces, so it covers the same messages.
   */
  baseSnapshotId: z.string().nullable().optional(),
  /** Rows written before the two fields above: one id for both meanings. Read, never written. */
  previousSnapshotId: z.string().nullable().optional(),
  focus: z.string().nullable(),
  /** Tokens of recent messages kept verbatim when it was made. */
  retentionTokens: z.number().int(),
  /** Context tokens of the next request before and after. */
  contextTokensBefore: z.number().int(),
  contextTokensAfter: z.number().int(),
  warnings: z.array(z.string()),
  /** The tiered strategy's history at the time: topics (current last) and bulk archives. */
  tiered: z
    .object({
      topics: z.array(
        z.object({
          id: z.string(),
          firstSeq: z.number().int(),
          lastSeq: z.number().int(),
          sealedBy: z.string().optional(),
          summary: z.string().optional(),
          summaryTokens: z.number().int().optional(),
          messages: z.number().int()
        })
      ),
      bulks: z.array(
        z.object({
          id: z.string(),
          firstSeq: z.number().int(),
          lastSeq: z.number().int(),
          topicIds: z.array(z.string()),
          summary: z.string(),
          tokens: z.number().int()
        })
      ),
      /** For topic and bulk snapshots: the summary snapshot they belong to; for a 'New topic' mark, 'boundary'. */
      role: z.enum(['history', 'topic', 'bulk', 'boundary']).optional(),
      summarySnapshotId: z.string().optional()
    })
    .optional(),
  /**
   * Where parts appended to the summary begin in `summaryText` (characters): the text before each
   * was an earlier summary, kept word for word, so a request can split the summary there for the
   * prompt cache (Anthropic breakpoints). Absent: written whole.
   */
  appendedAt: z.array(z.number().int().nonnegative()).optional(),
  /**
   * What asking the model for it took (a model summary only): input and output tokens, as the
   * provider reported them or else estimated from the request, and their price where the model's prices are known. Counted toward the chat's cost.
   */
  modelUsage: z
    .object({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      /** Of the input, what the provider's prompt cache served and what it wrote (a summary asked inside the chat). */
      cacheReadTokens: z.number().int().nonnegative().optional(),
      cacheWriteTokens: z.number().int().nonnegative().optional(),
      costUsd: z.number().nonnegative().nullable()
    })
    .optional(),
  /**
   * Text the user wrote into a summary (an edited draft or summary), carried forward verbatim by
   * later cascades as notes, never handed to the summarizer to condense. Absent: none.
   */
  userNotes: z.string().optional(),
  /** This summary's text is the user's own edit. */
  editedByUser: z.boolean().optional(),
  /**
   * A quick summary of a very long span (an imported chat's first compression) that summarized only
   * its newest part: these older messages are covered by its cutoff but not yet in its text (the text
   * says so); the summary of the whole span written in the background replaces it.
   */
  backlog: z
    .object({
      messages: z.number().int().nonnegative(),
      tokens: z.number().int().nonnegative(),
      firstSeq: z.number().int(),
      lastSeq: z.number().int()
    })
    .optional(),
  /** The importance strategy's decisions at the time. */
  importance: z.object({ kept: z.number().int(), compressed: z.number().int(), dropped: z.number().int() }).optional()
})
export type SummaryContent = z.infer<typeof summaryContentSchema>

/** The summary Undo re-activates, for rows of either shape. */
export function restoresSnapshotId(content: SummaryContent): string | null {
  return content.restoresSnapshotId !== undefined ? content.restoresSnapshotId : (content.previousSnapshotId ?? null)
}

export const snapshotKindSchema = z.enum(['title', 'summary', 'memory', 'topic', 'bulk'])
/** 'draft': a summary waiting for the user's review; it replaces nothing until accepted. */
export const snapshotStatusSchema = z.enum(['active', 'undone', 'superseded', 'draft'])

export const snapshotSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  kind: snapshotKindSchema,
  content: summaryContentSchema,
  messageCutoffId: z.string().nullable(),
  /** The seq of the cutoff message: everything up to it is covered. */
  cutoffSeq: z.number().int(),
  tokenCount: z.number().int(),
  status: snapshotStatusSchema,
  createdAt: z.number().int()
})
export type Snapshot = z.infer<typeof snapshotSchema>
