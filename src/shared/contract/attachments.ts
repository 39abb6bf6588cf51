import { z } from 'zod'
import { MAX_ATTACHMENT_BYTES } from '../domain/attachments'
import { attachmentPartSchema } from '../domain/chat-message'
import { route } from './define'

/** Base64 of at most MAX_ATTACHMENT_BYTES: 4 characters per 3 bytes, within the HTTP transport's 8 MB body. */
const MAX_BASE64_CHARS = Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4
const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'Not an attachment id')

export const attachmentRoutes = {
  /**
   * Stores a file (base64 in JSON, like every other call) and returns the part that attaches it to
   * a message. The bytes decide what it is: a renamed binary is refused with a sentence.
   */
  'attachments.upload': route(
    z
      .object({
        filename: z.string().min(1).max(1000),
        mediaType: z.string().max(200),
        data: z.string().max(MAX_BASE64_CHARS + 4, 'A file can be up to 5 MB.')
      })
      .strict(),
    attachmentPartSchema
  ),
  /**
   * The stored files of the messages the active summary stands for (the manifest), for the Summary
   * and the divider: read on the server, since the window holds only the pages it loaded.
   */
  'attachments.manifest': route(
    z.object({ sessionId: z.string().min(1) }).strict(),
    z.object({
      cutoffSeq: z.number().int(),
      items: z.array(
        z.object({
          messageId: z.string(),
          seq: z.number().int(),
          role: z.string(),
          createdAt: z.number(),
          filename: z.string(),
          mediaType: z.string(),
          size: z.number(),
          pages: z.number().optional(),
          width: z.number().optional(),
          height: z.number().optional(),
          hash: z.string().optional(),
          /** One line of what the file was (its heading, first line, or an image's size and message). */
          description: z.string().optional()
        })
      )
    })
  ),
  /** A stored file's bytes, base64: image thumbnails and the viewer. */
  'attachments.content': route(
    z.object({ hash: hashSchema }).strict(),
    z.object({ mediaType: z.string(), data: z.string() })
  ),
  /**
   * What the chat's model takes, so the composer refuses a file before it is uploaded or sent:
   * `imageRefusal` is the sentence for an image (naming models that can see) when it takes none.
   */
  'attachments.accepts': route(
    z.object({ sessionId: z.string().min(1) }).strict(),
    z.object({ vision: z.boolean(), imageRefusal: z.string().nullable() })
  )
}

/** A file attached to a message being sent: the part `attachments.upload` returned. */
export const sentAttachmentSchema = z.object({ hash: hashSchema, filename: z.string().min(1).max(1000) }).strict()
