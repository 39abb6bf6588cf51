import { ChatIcon } from '../../components/icons'

/** A chat without messages yet. */
export function ChatEmpty() {
  return (
    <div className="chat-empty">
      <ChatIcon className="chat-empty-icon" width={28} height={28} />
      <h2>Start the conversation</h2>
      <p className="muted">
        Ask anything. Long chats stay within the model’s context: older turns are summarized, and the originals are
        always kept.
      </p>
    </div>
  )
}
