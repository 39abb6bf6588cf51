import { useEffect } from 'react'
import { PaneHeader } from '../../components/pane-header'
import { useChatStore } from '../../stores/chat-store'
import { useSessionsStore, useSessionTitle } from '../../stores/sessions-store'
import { Composer } from './composer'
import { MessageList } from './message-list'

/** An open chat: its title, the conversation and the composer. Mounted per chat (keyed by id). */
export function ChatPane({ sessionId }: { sessionId: string }) {
  const title = useSessionTitle(sessionId)

  useEffect(() => {
    const chat = useChatStore.getState()
    if (!chat.threads[sessionId] || chat.threads[sessionId].status === 'error') void chat.load(sessionId)
    void useSessionsStore.getState().fetchOne(sessionId)
  }, [sessionId])

  useEffect(() => {
    document.title = title && title.trim() ? `${title} – Distill` : 'Distill'
    return () => {
      document.title = 'Distill'
    }
  }, [title])

  return (
    <section className="pane chat-pane" aria-label="Chat">
      <PaneHeader title={<span className="pane-title-text">{title ?? ' '}</span>} />
      <MessageList sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  )
}
