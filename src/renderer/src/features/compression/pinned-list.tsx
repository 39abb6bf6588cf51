import { useEffect, useState } from 'react'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { api } from '../../api/client'
import { PinIcon } from '../../components/icons'
import { messageText } from '../../lib/message-text'
import { formatFull } from '../../lib/relative-time'
import { usePin } from '../../components/pin-action'
import './pinned-list.css'

/** The chat's pins as the server lists them, refreshed whenever its context changes (a pin is one such change). */
function usePins(sessionId: string): ChatMessage[] {
  const [pins, setPins] = useState<ChatMessage[]>([])
  useEffect(() => {
    let live = true
    const load = () =>
      void api
        .request('chat.pins', { sessionId })
        .then((r) => live && setPins(r.messages))
        .catch(() => {})
    load()
    const off = api.on('usage.changed', (p) => p.sessionId === sessionId && load())
    return () => {
      live = false
      off()
    }
  }, [sessionId])
  return pins
}

const PREVIEW_CHARS = 240

function PinnedItem({ message }: { message: ChatMessage }) {
  const { toggle } = usePin(message)
  const text = messageText(message.parts)
  return (
    <li className="pinned-list-item">
      <span className="pinned-list-who">
        {message.role === 'user' ? 'You' : 'Reply'}, {formatFull(message.createdAt)}
      </span>
      <span className="pinned-list-text">
        {text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text}
      </span>
      <button type="button" className="button button-small" onClick={toggle}>
        Unpin
      </button>
    </li>
  )
}

/** In the Summary panel: the messages sent word for word beside the summary, whatever it covers. */
export function PinnedList({ sessionId }: { sessionId: string }) {
  const pins = usePins(sessionId)
  if (pins.length === 0) return null
  return (
    <section className="pinned-list" aria-label="Pinned messages">
      <p className="pinned-list-title">
        <PinIcon width={14} height={14} />
        {pins.length === 1 ? '1 pinned message' : `${pins.length} pinned messages`}, sent word for word in every request
      </p>
      <ul>
        {pins.map((m) => (
          <PinnedItem key={m.id} message={m} />
        ))}
      </ul>
    </section>
  )
}
