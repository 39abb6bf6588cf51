import { useChatStore } from '../../stores/chat-store'
import { useSessionsStore } from '../../stores/sessions-store'
import { useUiStore } from '../../stores/ui-store'
import { SessionItem } from './session-item'

export function SessionList() {
  const sessions = useSessionsStore((s) => s.sessions)
  const status = useSessionsStore((s) => s.status)
  const error = useSessionsStore((s) => s.error)
  const listedQuery = useSessionsStore((s) => s.listedQuery)
  const matches = useSessionsStore((s) => s.matches)
  const openAt = useSessionsStore((s) => s.openAt)
  const load = useSessionsStore((s) => s.load)
  const selectedId = useUiStore((s) => s.selectedSessionId)
  const openSession = useUiStore((s) => s.openSession)

  if (status === 'error' && sessions.length === 0) {
    return (
      <div className="session-list-note" role="alert">
        <p>Could not load your chats.</p>
        <p className="muted">{error}</p>
        <button type="button" className="button button-small" onClick={() => void load()}>
          Try again
        </button>
      </div>
    )
  }
  if (status === 'loading' && sessions.length === 0) {
    return <p className="session-list-note muted">Loading chats…</p>
  }
  if (sessions.length === 0) {
    return (
      <p className="session-list-note muted" role="status">
        {listedQuery ? `No chats match “${listedQuery}”.` : 'No chats yet.'}
      </p>
    )
  }
  return (
    <ul className="session-list" aria-label={listedQuery ? `Chats matching “${listedQuery}”` : 'All chats'}>
      {sessions.map((session) => (
        <SessionItem
          key={session.id}
          session={session}
          active={session.id === selectedId}
          match={listedQuery ? (matches[session.id] ?? null) : null}
          onOpen={(id) => {
            // A chat found by one of its messages opens at that message.
            const hit = listedQuery ? matches[id] : null
            if (hit) openAt(id, hit.messageId)
            else {
              // Asked for before the chat pane renders, not after (the first pane takes ~20 ms).
              useChatStore.getState().loadUnlessLoaded(id)
              openSession(id)
            }
          }}
        />
      ))}
    </ul>
  )
}
