import { toast } from 'sonner'
import { api } from '../../api/client'
import { errorMessage } from '../../api/api-error'
import { useSessionsStore } from '../../stores/sessions-store'
import { useChatSettings } from '../../stores/chat-settings'
import { NewTopicIcon } from '../../components/icons'

/**
 * The tiered strategy's "New topic" (ADR 033): the messages so far close the current topic, so the
 * next ones start a fresh one. Shown only while the chat uses the tiered strategy.
 */
export function NewTopicButton({ sessionId, disabled }: { sessionId: string; disabled?: boolean }) {
  const session = useSessionsStore((s) => s.sessions.find((x) => x.id === sessionId))
  if (useChatSettings(session)?.strategy !== 'tiered') return null

  async function mark() {
    try {
      const { marked } = await api.request('compression.newTopic', { sessionId })
      if (marked) toast.success('New topic started', { description: 'The next messages begin a new topic.' })
      else toast('A topic already ends here')
    } catch (error) {
      toast.error('Could not start a new topic', { description: errorMessage(error) })
    }
  }

  return (
    <button
      type="button"
      className="button button-small header-text-button"
      disabled={disabled}
      title="New topic: the next messages start a fresh topic"
      onClick={() => void mark()}
    >
      {/* On a narrow header only the icon shows; the label stays the button's name. */}
      <NewTopicIcon width={14} height={14} />
      <span className="header-button-label">New topic</span>
    </button>
  )
}
