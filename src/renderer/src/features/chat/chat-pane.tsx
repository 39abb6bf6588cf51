import { useEffect } from 'react'
import { PaneHeader } from '../../components/pane-header'
import { useChatStore } from '../../stores/chat-store'
import { useSessionsStore, useSessionTitle } from '../../stores/sessions-store'
import { ContextMeter } from '../usage/context-meter'
import { Composer } from './composer'
import { MessageList } from './message-list'
import { ModelPicker } from './model-picker'
import { SystemPromptButton } from './system-prompt-dialog'

/**
 * An open chat: its title with the model, the context meter and the system prompt, then the
 * conversation and the composer. Mounted per chat (keyed by id).
 */
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
      <PaneHeader title={<span className="pane-title-text">{title ?? ' '}</span>}>
        <ModelPicker sessionId={sessionId} />
        <ContextMeter sessionId={sessionId} />
        <SystemPromptButton sessionId={sessionId} />
      </PaneHeader>
      <MessageList sessionId={sessionId} />
      <Composer sessionId={sessionId} />
    </section>
  )
}
