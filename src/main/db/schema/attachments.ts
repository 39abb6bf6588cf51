import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { chatMessages } from './chat-messages'

/**
 * Stored files, one row per distinct content (sha-256 of the bytes); the bytes live in
 * `attachments/ab/cdef…` beside the database. A file's name belongs to the message part that
 * attaches it: the same bytes may be attached under several names.
 */
export const attachments = sqliteTable('attachments', {
  hash: text('hash').primaryKey(),
  mediaType: text('media_type').notNull(),
  size: integer('size').notNull(),
  /** PDFs: pages. Images: pixels, for counting what providers charge. */
  pages: integer('pages'),
  width: integer('width'),
  height: integer('height'),
  /**
   * One line of what the file is, made from its bytes without a model (a text file's first heading
   * or line, a PDF's first line): the compression manifest shows it once the file left the context.
   */
  description: text('description'),
  createdAt: integer('created_at').notNull(),
  /** Set once a message referenced it: unreferenced after that means its messages were deleted. */
  used: integer('used', { mode: 'boolean' }).notNull().default(false)
})

/**
 * Which messages reference which files, kept by triggers from `chat_messages.parts` (every writer:
 * chat, import, replay), removed with the message by cascade. Deleting a chat leaves the files
 * nothing references, which the store then removes.
 */
export const messageAttachments = sqliteTable(
  'message_attachments',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull()
  },
  (t) => [primaryKey({ columns: [t.messageId, t.hash] }), index('message_attachments_hash_idx').on(t.hash)]
)

export type AttachmentRow = typeof attachments.$inferSelect
