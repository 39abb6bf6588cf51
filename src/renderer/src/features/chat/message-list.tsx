import { useLayoutEffect, useRef } from 'react'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { useChatStore } from '../../stores/chat-store'
import { ChatEmpty } from './chat-empty'
import { MessageItem } from './message-item'

function retryable(message: ChatMessage): boolean {
  return message.role === 'assistant' && (message.status === 'error' || message.status === 'aborted')
}

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_SLACK = 120

/** The conversation. Follows new messages while the reader is at the bottom, and always after they send. */
export function MessageList({ sessionId }: { sessionId: string }) {
  const thread = useChatStore((s) => s.threads[sessionId])
  const load = useChatStore((s) => s.load)
  const scrollRef = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  const lastId = useRef<string | null>(null)

  const messages = thread?.messages
  const last = messages?.[messages.length - 1]

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el || !last) return
    const isNew = last.id !== lastId.current
    const first = lastId.current === null
    lastId.current = last.id
    // New messages: follow if the reader was at the bottom, and always after they send. A growing
    // (streaming) reply: follow only while the reader stays at the bottom.
    if (first || following.current || (isNew && last.role === 'user')) {
      el.scrollTop = el.scrollHeight
      following.current = true
    }
  }, [last])

  if (!thread || (thread.status === 'loading' && thread.messages.length === 0)) {
    return <div className="message-scroll" aria-busy="true" />
  }
  if (thread.status === 'error' && thread.messages.length === 0) {
    return (
      <div className="message-scroll">
        <div className="chat-empty" role="alert">
          <h2>Could not load this chat</h2>
          <p className="muted">{thread.error}</p>
          <button type="button" className="button" onClick={() => void load(sessionId)}>
            Try again
          </button>
        </div>
      </div>
    )
  }
  if (thread.messages.length === 0) {
    return (
      <div className="message-scroll">
        <ChatEmpty />
      </div>
    )
  }

  return (
    <div
      ref={scrollRef}
      className="message-scroll"
      onScroll={(event) => {
        const el = event.currentTarget
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK
      }}
    >
      <div className="message-column" role="log" aria-label="Messages">
        {thread.messages.map((message, index) => (
          <MessageItem
            key={message.id}
            message={message}
            canRetry={index === thread.messages.length - 1 && retryable(message)}
          />
        ))}
      </div>
    </div>
  )
}
