import { z } from 'zod'
import { projectNameSchema, projectSchema } from '../domain/project'
import { sessionSummarySchema } from '../domain/session'
import { route } from './define'

const idInput = z.object({ id: z.string().min(1) }).strict()

/** The most chats a project's section lists (most recently active first). */
export const PROJECT_CHATS_MAX = 500

/** A passage Recall would bring back from another chat of the project, as the context inspector lists it. */
export const crossChatPassageSchema = z.object({
  messageId: z.string(),
  sessionId: z.string(),
  chatTitle: z.string(),
  /** The day shown to the model beside the chat's title ("3 March 2026"). */
  date: z.string(),
  role: z.string(),
  /** The passage as sent (possibly an excerpt). */
  text: z.string()
})
export type CrossChatPassage = z.infer<typeof crossChatPassageSchema>

export const projectRoutes = {
  'projects.list': route(z.object({}).strict(), z.array(projectSchema)),
  /** A project's chats for its sidebar section, whatever page of the chat list they are on. */
  'projects.chats': route(idInput, z.array(sessionSummarySchema)),
  'projects.create': route(
    z.object({ name: projectNameSchema, recallAcrossChats: z.boolean().optional() }).strict(),
    projectSchema
  ),
  'projects.rename': route(z.object({ id: z.string().min(1), name: projectNameSchema }).strict(), projectSchema),
  /** Whether Recall in the project's chats may reach its other chats. */
  'projects.update': route(z.object({ id: z.string().min(1), recallAcrossChats: z.boolean() }).strict(), projectSchema),
  /** Deletes the project; its chats stay, unfiled. */
  'projects.delete': route(idInput, z.object({ id: z.string(), chats: z.number().int() })),
  /**
   * Leaves a passage recalled from another chat out of this chat's next request (or brings it back).
   * Kept in memory until that request is sent.
   */
  'recall.leaveOut': route(
    z.object({ sessionId: z.string().min(1), messageId: z.string().min(1), leftOut: z.boolean() }).strict(),
    z.object({ leftOut: z.array(z.string()) })
  )
}

export const projectEvents = {
  /** A project was created, renamed, changed or deleted (chats moving between projects are `sessions.changed`). */
  'projects.changed': z.object({ projectId: z.string() })
}
