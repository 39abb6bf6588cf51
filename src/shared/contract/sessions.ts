import { z } from 'zod'
import { providerIdSchema } from '../domain/provider'
import { sessionSchema, sessionSummarySchema, sessionTitleSchema, strategySchema } from '../domain/session'
import { route } from './define'

const idInput = z.object({ id: z.string().min(1) }).strict()

export const sessionRoutes = {
  'sessions.list': route(
    z.object({ query: z.string().max(200).optional() }).strict(),
    z.array(sessionSummarySchema)
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
        autoCompress: z.boolean().nullable().optional()
      })
      .strict(),
    sessionSchema
  ),
  /** The chat as a file's text: a Markdown transcript, or JSON that `distill import` reads back. */
  'sessions.export': route(
    z.object({ id: z.string().min(1), format: z.enum(['md', 'json']) }).strict(),
    z.object({ filename: z.string(), mimeType: z.string(), text: z.string() })
  )
}

export const sessionEvents = {
  /** A session was created, renamed, deleted or got a new message. */
  'sessions.changed': z.object({ sessionId: z.string(), reason: z.enum(['created', 'updated', 'deleted']) })
}
