import type { FilePart, ModelMessage, TextPart } from 'ai'
import type { AttachmentPart, ChatMessage, MessagePart } from '../../shared/domain/chat-message'

/**
 * A stored attachment in a request, before its bytes are read: the URL names the file by its hash.
 * `resolveAttachments` (src/main/attachments) replaces each with the provider's part (image, PDF,
 * text) right before sending, so building a request never reads files.
 */
export const ATTACHMENT_URL_PROTOCOL = 'distill-attachment:'

export function attachmentPlaceholder(part: AttachmentPart & { hash: string }): FilePart {
  return {
    type: 'file',
    data: new URL(`${ATTACHMENT_URL_PROTOCOL}${part.hash}`),
    mediaType: part.mediaType,
    filename: part.filename
  }
}

const isStored = (p: MessagePart): p is AttachmentPart & { hash: string } =>
  p.type === 'attachment' && p.hash !== undefined

/** Attachments without stored bytes travel as a line of metadata only (FR-1.1.3): the model learns they exist. */
export function attachmentLine(part: Extract<MessagePart, { type: 'attachment' }>): string {
  return `[attachment: ${part.filename}, ${part.mediaType}, ${part.size} bytes]`
}

function textOf(parts: readonly MessagePart[]): string {
  return parts
    .map((p) => (p.type === 'text' ? p.text : p.type === 'attachment' && !isStored(p) ? attachmentLine(p) : ''))
    .filter((t) => t !== '')
    .join('\n\n')
}

/** Stored messages in the AI SDK's message format, in order, tool calls kept with their results. */
export function toModelMessages(messages: readonly Pick<ChatMessage, 'role' | 'parts'>[]): ModelMessage[] {
  const out: ModelMessage[] = []
  for (const m of messages) {
    if (m.role === 'system') {
      out.push({ role: 'system', content: textOf(m.parts) })
    } else if (m.role === 'user') {
      const files = m.parts.filter(isStored)
      const text = textOf(m.parts)
      // Plain text stays a string: the wire format our token counts reproduce.
      out.push(
        files.length === 0
          ? { role: 'user', content: text }
          : {
              role: 'user',
              content: [
                ...(text ? [{ type: 'text', text } satisfies TextPart] : []),
                ...files.map(attachmentPlaceholder)
              ]
            }
      )
    } else if (m.role === 'assistant') {
      const calls = m.parts.filter((p) => p.type === 'tool-call')
      const text = textOf(m.parts)
      if (calls.length === 0) {
        out.push({ role: 'assistant', content: text })
      } else {
        out.push({
          role: 'assistant',
          content: [
            ...(text ? [{ type: 'text' as const, text }] : []),
            ...calls.map((c) => ({
              type: 'tool-call' as const,
              toolCallId: c.toolCallId,
              toolName: c.toolName,
              input: c.input
            }))
          ]
        })
      }
    } else {
      const results = m.parts.filter((p) => p.type === 'tool-result')
      out.push({
        role: 'tool',
        content: results.map((r) => ({
          type: 'tool-result' as const,
          toolCallId: r.toolCallId,
          toolName: r.toolName,
          output:
            typeof r.output === 'string'
              ? { type: 'text' as const, value: r.output }
              : { type: 'json' as const, value: (r.output ?? null) as never }
        }))
      })
    }
  }
  return out
}
