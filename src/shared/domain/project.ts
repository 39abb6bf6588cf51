import { z } from 'zod'

export const projectNameSchema = z
  .string()
  .trim()
  .min(1, 'Name cannot be empty')
  .max(100, 'Name is too long (100 characters at most)')

/** Chats grouped by the user (a chat belongs to at most one project). */
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Recall in the project's chats may bring back passages of its other chats. */
  recallAcrossChats: z.boolean(),
  createdAt: z.number().int()
})
export type Project = z.infer<typeof projectSchema>
