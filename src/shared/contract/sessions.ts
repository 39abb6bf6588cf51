import { z } from 'zod'
import { sessionSchema, sessionSummarySchema, sessionTitleSchema } from '../domain/session'
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
  'sessions.delete': route(idInput, z.object({ id: z.string() }))
}

export const sessionEvents = {
  /** A session was created, renamed, deleted or got a new message. */
  'sessions.changed': z.object({ sessionId: z.string(), reason: z.enum(['created', 'updated', 'deleted']) })
}
