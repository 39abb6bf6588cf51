import { z } from 'zod'

/** Messages a page holds when the caller does not say (a few screens of a chat). */
export const MESSAGE_PAGE_DEFAULT = 200
/** The most a page may hold: a page read costs what it carries, so it stays bounded. */
export const MESSAGE_PAGE_MAX = 500

/**
 * Where a page of a chat's messages starts: the newest messages (no cursor), those before or after
 * a seq, or those around a message (its id, or a seq). At most one cursor.
 */
export const messagePageInput = z
  .object({
    sessionId: z.string().min(1),
    /** Messages with a lower seq than this one, the newest of them. */
    before: z.number().int().positive().optional(),
    /** Messages with a higher seq than this one, the oldest of them. */
    after: z.number().int().nonnegative().optional(),
    /** A page with this message (id or seq) in its middle. */
    around: z.union([z.string().min(1), z.number().int().positive()]).optional(),
    limit: z.number().int().min(1).max(MESSAGE_PAGE_MAX).optional()
  })
  .strict()
  .refine((c) => [c.before, c.after, c.around].filter((v) => v !== undefined).length <= 1, {
    message: 'Give at most one of before, after and around.',
    path: ['before']
  })
export type MessagePageInput = z.infer<typeof messagePageInput>
export type MessageCursor = Omit<MessagePageInput, 'sessionId'>

/** A page's messages (oldest first) and whether the chat holds more on either side. */
export function messagePageOutput<T extends z.ZodType>(message: T) {
  return z.object({ messages: z.array(message), hasOlder: z.boolean(), hasNewer: z.boolean() })
}
