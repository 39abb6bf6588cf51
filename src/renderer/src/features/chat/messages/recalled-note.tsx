import { useEffect } from 'react'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useRecallStore } from '../../../stores/chat/recall-store'
import { useUiStore } from '../../../stores/ui-store'
import '../../compression/recall.css'

const EMPTY: string[] = []

/** "Recalled 3 earlier messages" under a reply whose request brought summarized originals back. */
export function RecalledNote({ message }: { message: ChatMessage }) {
  const done = message.role === 'assistant' && message.status !== 'streaming'
  const ids = useRecallStore((s) => s.bySession[message.sessionId]?.replies[message.id] ?? EMPTY)
  const thread = useChatStore((s) => s.threads[message.sessionId]?.messages)
  useEffect(() => {
    if (done) useRecallStore.getState().ensure(message.sessionId, message.id)
  }, [done, message.sessionId, message.id])
  if (!done || ids.length === 0) return null

  const jump = (id: string) => {
    useRecallStore.getState().requestJump(id)
    useUiStore.getState().setChatDialog('history')
  }
  return (
    <details className="recalled-note">
      <summary>
        Recalled {ids.length} earlier {ids.length === 1 ? 'message' : 'messages'}
      </summary>
      <ul aria-label="Recalled messages">
        {ids.map((id) => {
          const original = thread?.find((m) => m.id === id)
          const preview = original
            ? messageText(original.parts).replace(/\s+/g, ' ').slice(0, 90)
            : 'An earlier message'
          return (
            <li key={id}>
              <button type="button" onClick={() => jump(id)} title="Show it in Full history">
                {preview}
              </button>
            </li>
          )
        })}
      </ul>
    </details>
  )
}
