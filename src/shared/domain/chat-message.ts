import { z } from 'zod'

/** The largest message a user may send, in characters. Longer input is refused with a clear error. */
export const MAX_MESSAGE_CHARS = 1_000_000

// C0 controls other than tab, line feed and carriage return, and DEL: no text a person writes holds
// them, and two of them (\u0002, \u0003) are the marks search highlights are made of.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

/** A message's text as stored, whatever door it came through: without control characters. */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '')
}
/** What the composer and the importer say about a message over MAX_MESSAGE_CHARS. */
export const MESSAGE_TOO_LONG = `Message is too long (${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters at most)`

export const messageRoleSchema = z.enum(['system', 'user', 'assistant', 'tool'])
export type MessageRole = z.infer<typeof messageRoleSchema>

export const messageStatusSchema = z.enum(['complete', 'streaming', 'error', 'aborted'])
export type MessageStatus = z.infer<typeof messageStatusSchema>

export const textPartSchema = z.object({ type: z.literal('text'), text: z.string() })
export const toolCallPartSchema = z.object({
  type: z.literal('tool-call'),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown()
})
export const toolResultPartSchema = z.object({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  toolName: z.string(),
  output: z.unknown()
})
/**
 * A file in a message. `hash` (sha-256 of the bytes) names the stored file, which the request sends
 * in the provider's format; a part without it (an import that carried only the name) is metadata only
 * and travels as one line (FR-1.1.3). `pages` for PDFs, `width`/`height` for images, `tokens` for text.
 */
export const attachmentPartSchema = z.object({
  type: z.literal('attachment'),
  filename: z.string(),
  mediaType: z.string(),
  size: z.number().int().nonnegative(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  pages: z.number().int().nonnegative().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** Text and code files: the o200k tokens of the content, counted when sent (what the meter adds for it). */
  tokens: z.number().int().nonnegative().optional(),
  /** One line of what the file was (its heading, first line, or the message sent with an image), for the manifest. */
  description: z.string().max(300).optional()
})
export type AttachmentPart = z.infer<typeof attachmentPartSchema>

export const messagePartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  toolCallPartSchema,
  toolResultPartSchema,
  attachmentPartSchema
])
export type MessagePart = z.infer<typeof messagePartSchema>

export const messageErrorSchema = z.object({ code: z.string(), message: z.string() })
export type MessageError = z.infer<typeof messageErrorSchema>

export const chatMessageSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  seq: z.number().int(),
  role: messageRoleSchema,
  parts: z.array(messagePartSchema),
  status: messageStatusSchema,
  error: messageErrorSchema.nullable(),
  tokenCount: z.number().int().nullable(),
  tokenCounter: z.string().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  createdAt: z.number().int(),
  /** Tokens cut from the middle of this message when it was sent (it was larger than the window allows); the stored text is whole. */
  sentCutTokens: z.number().int().positive().optional(),
  /** On a reply: the chat's oldest unsummarized messages its request could not carry (they did not fit and no summary held them). */
  sentWithoutMessages: z.number().int().positive().optional(),
  /** Which version of this message is in use (a regenerated reply, an edited message), when there are several. */
  version: z.object({ number: z.number().int().positive(), count: z.number().int().positive() }).optional(),
  /** When the user pinned it: sent verbatim in every request, never summarized away. */
  pinnedAt: z.number().int().optional(),
  /** On a reply: of its input tokens, those the provider said it read from / wrote to its prompt cache. */
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional()
})
export type ChatMessage = z.infer<typeof chatMessageSchema>

/** The plain text of a message: its text parts joined by blank lines. */
export function messageText(parts: readonly MessagePart[]): string {
  return parts
    .filter((p): p is Extract<MessagePart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n\n')
}
