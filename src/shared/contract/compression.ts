import { z } from 'zod'
import { runTypeSchema, snapshotSchema, summarizerKindSchema } from '../domain/snapshot'
import { route } from './define'

const sessionInput = z.object({ sessionId: z.string().min(1) }).strict()
const retentionSchema = z.number().int('Use a whole number').min(0, 'Cannot be negative').max(1_000_000)
const focusSchema = z.string().trim().max(2000, 'Keep the focus under 2,000 characters')

/** FR-2.3.2: what the confirmation dialog shows. */
export const compressionPreviewSchema = z.object({
  totalMessages: z.number().int(),
  messagesToSummarize: z.number().int(),
  messagesKept: z.number().int(),
  tokensBefore: z.number().int(),
  estimatedTokensAfter: z.number().int(),
  targetSummaryTokens: z.number().int(),
  retentionTokens: z.number().int(),
  belowMinimum: z.boolean(),
  minimumTokens: z.number().int(),
  summaryExists: z.boolean(),
  warnings: z.array(z.string()),
  /**
   * At most how many requests the summarization model would be sent (a span longer than its window
   * goes in parts; until a reply reports the server's count, another tokenizer's is assumed 25%
   * higher); 0 when no model writes the summary (an offline summarizer, another strategy, no key).
   */
  summaryRequests: z.number().int().nonnegative(),
  summarizationModel: z.string().nullable(),
  /** About what those requests cost in US dollars; null where the model's prices are unknown. */
  estimatedCostUsd: z.number().nonnegative().nullable()
})
export type CompressionPreview = z.infer<typeof compressionPreviewSchema>

/** FR-2.4.3: the completion report. */
export const compressionReportSchema = z.object({
  type: z.enum(['auto', 'manual']),
  messagesSummarized: z.number().int(),
  tokensBefore: z.number().int(),
  tokensAfter: z.number().int(),
  summaryPreview: z.string(),
  summarizer: z.string(),
  /** The llm summarizer failed and the extractive one stood in (FR-5.1.1). */
  fellBack: z.boolean(),
  warnings: z.array(z.string()),
  /**
   * 'writing': a quick offline summary went in so the message did not wait; the model's summary is
   * being written and replaces it when it arrives. 'replaced': this is that model summary.
   * 'prepared': written ahead in the background and swapped in when the threshold was reached.
   */
  background: z.enum(['writing', 'replaced', 'prepared']).optional(),
  /**
   * An imported history's older messages: 'pending' when this quick summary read only the newest
   * part (the rest is summarized in the background), 'done' when that summary of all of it landed.
   */
  backlog: z.object({ messages: z.number().int(), state: z.enum(['pending', 'done']) }).optional(),
  /** About what the model summary cost in US dollars, where the model's prices are known. */
  costUsd: z.number().nonnegative().optional(),
  /** Written as a draft for the user's review (review before the swap): nothing was replaced yet. */
  draft: z.boolean().optional()
})
export type CompressionReport = z.infer<typeof compressionReportSchema>

const runResult = z.object({ snapshot: snapshotSchema, report: compressionReportSchema })

/** A summary waiting for the user's review (review before the swap), with what accepting it would do now. */
export const summaryDraftSchema = z.object({
  snapshot: snapshotSchema,
  /** Messages it covers beyond the summary in use (negative: fewer, after a quick summary went in meanwhile). */
  newMessages: z.number().int(),
  /** Its size as a request carries it, and the context tokens accepting it frees now (negative: adds). */
  tokens: z.number().int(),
  freesTokens: z.number().int()
})
export type SummaryDraft = z.infer<typeof summaryDraftSchema>
/**
 * Where each line of a summary came from (issue 37): per line of its text (0-based), the messages it
 * was drawn from, found after the fact by lexical match within the messages the summary covers.
 * `quoted`: the line holds the message's words as good as verbatim (an offline summary's line).
 */
export const summarySourcesSchema = z.object({
  snapshotId: z.string(),
  messagesIncluded: z.number().int(),
  lines: z.array(
    z.object({
      line: z.number().int().nonnegative(),
      sources: z.array(z.object({ messageId: z.string(), seq: z.number().int(), quoted: z.boolean() }))
    })
  ),
  /** Every message some line names, oldest first, with the start of its text. */
  messages: z.array(
    z.object({
      messageId: z.string(),
      seq: z.number().int(),
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      createdAt: z.number().int(),
      preview: z.string()
    })
  )
})
export type SummarySources = z.infer<typeof summarySourcesSchema>
const summaryTextSchema = z
  .string()
  .trim()
  .min(1, 'The summary cannot be empty')
  .max(200_000, 'The summary is too long')
const draftInput = sessionInput.extend({ draftId: z.string().min(1) }).strict()

export const compressionRoutes = {
  'compression.preview': route(
    sessionInput.extend({ retentionTokens: retentionSchema.optional() }).strict(),
    compressionPreviewSchema
  ),
  /** Manual compression (FR-2): everything by default, or keep a retention override verbatim. */
  'compression.run': route(
    sessionInput
      .extend({
        retentionTokens: retentionSchema.optional(),
        focus: focusSchema.optional(),
        summarizer: summarizerKindSchema.optional()
      })
      .strict(),
    runResult
  ),
  'compression.cancel': route(sessionInput, z.object({ cancelled: z.boolean() })),
  /** Restores the context before the latest summary exactly. */
  'compression.undo': route(sessionInput, z.object({ active: snapshotSchema.nullable() })),
  /** Summarizes the latest summary's range again, optionally with a new focus. */
  'compression.regenerate': route(sessionInput.extend({ focus: focusSchema.optional() }).strict(), runResult),
  'compression.snapshots': route(sessionInput, z.array(snapshotSchema)),
  /** The tiered strategy's "New topic": the messages so far close the current topic. */
  'compression.newTopic': route(sessionInput, z.object({ marked: z.boolean() })),
  'compression.active': route(
    sessionInput,
    z.object({ summary: snapshotSchema.nullable(), running: z.boolean(), draft: summaryDraftSchema.nullable() })
  ),
  /** Review before the swap: the draft's text as the user wrote it (marked as theirs). */
  'compression.editDraft': route(draftInput.extend({ text: summaryTextSchema }).strict(), summaryDraftSchema),
  /** Makes the draft the active summary (with the user's text when given), undoable like any summary. */
  'compression.acceptDraft': route(
    draftInput.extend({ text: summaryTextSchema.optional() }).strict(),
    z.object({ active: snapshotSchema })
  ),
  'compression.discardDraft': route(draftInput, z.object({ discarded: z.boolean() })),
  /** Writes the draft again over the same span, optionally with a focus; it stays a draft. */
  'compression.regenerateDraft': route(sessionInput.extend({ focus: focusSchema.optional() }).strict(), runResult),
  /** Which messages each line of a summary (the active one, a draft or an older one) came from. */
  'compression.sources': route(sessionInput.extend({ snapshotId: z.string().min(1) }).strict(), summarySourcesSchema),
  /** The active summary replaced by the user's text (Undo brings the previous text back). */
  'compression.editSummary': route(
    sessionInput.extend({ text: summaryTextSchema }).strict(),
    z.object({ active: snapshotSchema })
  )
}

export const compressionEvents = {
  'compression.started': z.object({ sessionId: z.string(), type: runTypeSchema, messages: z.number().int() }),
  /**
   * More of a summary being written by the llm summarizer. A span too long for the summarization
   * model's window is written in parts: `part` comes (with an empty delta) as each request starts.
   */
  'compression.progress': z.object({
    sessionId: z.string(),
    delta: z.string(),
    part: z.object({ done: z.number().int().nonnegative(), total: z.number().int().positive() }).optional()
  }),
  'compression.done': z.object({ sessionId: z.string(), snapshot: snapshotSchema, report: compressionReportSchema }),
  'compression.failed': z.object({
    sessionId: z.string(),
    type: runTypeSchema,
    code: z.string(),
    message: z.string()
  }),
  /** The active summary changed without a new compression (undo). */
  'compression.changed': z.object({ sessionId: z.string() })
}
