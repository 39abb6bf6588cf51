import type { ChatMessage } from '../../shared/domain/chat-message'

/**
 * The messages a request carries: complete ones, plus replies the user stopped that hold text.
 * Failed and still-streaming replies are not history.
 */
export function requestHistory(messages: readonly ChatMessage[], beforeSeq = Infinity): ChatMessage[] {
  return messages.filter(
    (m) =>
      m.seq < beforeSeq &&
      (m.status === 'complete' || (m.status === 'aborted' && m.role === 'assistant' && m.parts.length > 0))
  )
}
