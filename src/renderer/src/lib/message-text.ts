import type { MessagePart } from '../../../shared/domain/chat-message'

/** The plain text of a message: its text parts joined by blank lines (mirrors shared/domain's messageText). */
export function messageText(parts: readonly MessagePart[]): string {
  return parts
    .filter((p): p is Extract<MessagePart, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n\n')
}
