import { z } from 'zod'
import { providerIdSchema } from '../domain/provider'
import { sessionSchema, sessionSummarySchema, sessionTitleSchema, strategySchema } from '../domain/session'
import { thresholdPercentSchema } from '../domain/settings'
import { route } from './define'

const idInput = z.object({ id: z.string().min(1) }).strict()

/** Chats a search across chats answers at most, and matching messages shown per chat. */
export const SEARCH_CHATS = 50
export const SEARCH_PASSAGES = 3

/** A matching message: its passage as plain text, the matched words as [start, end) offsets in it. */
/** [start, end) offsets of matched words in a text (UTF-16 units, as JavaScript counts). */
const rangesSchema = z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)]))

export const searchPassageSchema = z.object({
  messageId: z.string(),
  seq: z.number().int(),
  role: z.string(),
  createdAt: z.number(),
  text: z.string(),
  ranges: rangesSchema
})
export type SearchPassage = z.infer<typeof searchPassageSchema>

/** A chat found by a search: its title matched, or messages did (the best few, best first). */
export const sessionSearchResultSchema = sessionSummarySchema.extend({
  titleMatch: z.boolean(),
  /** The words typed, found in the title (empty unless `titleMatch`). */
  titleRanges: rangesSchema,
  passages: z.array(searchPassageSchema).max(SEARCH_PASSAGES),
  /** How many of the chat's messages match (at least this many when `countIsLowerBound`). */
  count: z.number().int(),
  /** The word is common: only its newest matches were ranked, so the chat may hold more. */
  countIsLowerBound: z.boolean()
})
export type SessionSearchResult = z.infer<typeof sessionSearchResultSchema>

/** The chats found, best first, and how much matched in all ("12 matches and 1 title in 5 chats"). */
export const sessionSearchSchema = z.object({
  results: z.array(sessionSearchResultSchema),
  /**
   * Matching messages in every chat found, not only those returned: the sum of the chats' `count`,
   * or, for a common query (`countIsLowerBound`), those counted over the whole index, up to a cap.
   */
  matches: z.number().int(),
  /** Chats whose title holds the words (every one of them is among the results, first). */
  titleMatches: z.number().int(),
  chats: z.number().int(),
  /** A common word: only its newest matches were looked at, so there may be more. */
  countIsLowerBound: z.boolean()
})
export type SessionSearch = z.infer<typeof sessionSearchSchema>

/** Chats a page of the list holds when the caller does not say (a few screens of the sidebar). */
export const SESSION_PAGE_DEFAULT = 100
/** The most a page may hold: each chat listed costs a count and a preview. */
export const SESSION_PAGE_MAX = 500

export const sessionRoutes = {
  /**
   * A page of the chats, most recently active first: the first page without a cursor, the next one
   * with the `nextCursor` of the page before (null on the last page).
   */
  'sessions.list': route(
    z
      .object({
        query: z.string().max(200).optional(),
        cursor: z.string().min(1).max(300).optional(),
        limit: z.number().int().min(1).max(SESSION_PAGE_MAX).optional()
      })
      .strict(),
    z.object({ sessions: z.array(sessionSummarySchema), nextCursor: z.string().nullable() })
  ),
  'sessions.create': route(z.object({ title: sessionTitleSchema.optional() }).strict(), sessionSchema),
  'sessions.get': route(idInput, sessionSchema),
  'sessions.rename': route(z.object({ id: z.string().min(1), title: sessionTitleSchema }).strict(), sessionSchema),
  'sessions.delete': route(idInput, z.object({ id: z.string() })),
  /** Per-chat choices: model, system prompt, compression overrides (null = inherit). */
  'sessions.update': route(
    z
      .object({
        id: z.string().min(1),
        provider: providerIdSchema.optional(),
        modelId: z.string().trim().min(1).max(200).optional(),
        systemPrompt: z.string().max(100_000).nullable().optional(),
        strategy: strategySchema.nullable().optional(),
        autoCompress: z.boolean().nullable().optional(),
        recall: z.boolean().nullable().optional(),
        /** Moves the chat into a project (null: out of any). */
        projectId: z.string().min(1).nullable().optional(),
        /** Recall from the project's other chats for this chat alone; null = as the project says. */
        recallAcrossChats: z.boolean().nullable().optional(),
        reviewSummaries: z.boolean().nullable().optional(),
        contextWindow: z
          .number()
          .int()
          .min(512, 'At least 512 tokens')
          .max(10_000_000, 'At most 10,000,000 tokens')
          .nullable()
          .optional(),
        maxOutput: z
          .number()
          .int()
          .min(1, 'At least 1 token')
          .max(1_000_000, 'At most 1,000,000 tokens')
          .nullable()
          .optional(),
        thresholdPercent: thresholdPercentSchema.nullable().optional()
      })
      .strict(),
    sessionSchema
  ),
  /** Chats whose title or messages hold every word typed (full-text, best first), with their best passages. */
  'sessions.search': route(
    z.object({ query: z.string().trim().min(1, 'Type something to search for').max(200) }).strict(),
    sessionSearchSchema
  ),
  /** The chat as a file's text: a Markdown transcript, or JSON that `distill import` reads back. */
  'sessions.export': route(
    z.object({ id: z.string().min(1), format: z.enum(['md', 'json']) }).strict(),
    z.object({ filename: z.string(), mimeType: z.string(), text: z.string() })
  ),
  /**
   * A chat exported as JSON, written back as a new chat with its summaries and files (checked by
   * their sha-256; a damaged file refuses the import before anything is written).
   */
  'sessions.import': route(
    z.object({ text: z.string().min(1, 'The file is empty.') }).strict(),
    z.object({
      id: z.string(),
      title: z.string(),
      messages: z.number().int(),
      snapshots: z.number().int(),
      attachments: z.number().int(),
      /** The project the file names; the chat is not put in it unless the user says so. */
      project: z.string().nullable()
    })
  )
}

export const sessionEvents = {
  /** A session was created, renamed, deleted or got a new message. */
  'sessions.changed': z.object({ sessionId: z.string(), reason: z.enum(['created', 'updated', 'deleted']) })
}
