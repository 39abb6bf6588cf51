import { useId, useState } from 'react'
import { toast } from 'sonner'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'

/**
 * One of your messages, edited in place. Sending makes a new version of it with a new reply; the
 * original and the turns that followed it stay as the previous version (‹ 1/2 ›).
 */
export function MessageEditor({ message, onClose }: { message: ChatMessage; onClose(): void }) {
  const original = messageText(message.parts)
  const [text, setText] = useState(original)
  const [busy, setBusy] = useState(false)
  const edit = useChatStore((s) => s.edit)
  const hintId = useId()
  const changed = text.trim() !== '' && text !== original

  async function submit() {
    if (!changed || busy) return
    setBusy(true)
    const failure = await edit(message.sessionId, message.id, text)
    setBusy(false)
    if (failure) toast.error('Could not send the edited message', { description: failure })
    else onClose()
  }

  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <textarea
        className="input textarea"
        aria-label="Edit message"
        aria-describedby={hintId}
        // The user asked to edit this message: the caret goes there.
        autoFocus
        value={text}
        readOnly={busy}
        onFocus={(event) => event.currentTarget.setSelectionRange(text.length, text.length)}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            onClose()
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            void submit()
          }
        }}
      />
      <div className="message-editor-actions">
        <span id={hintId} className="message-editor-hint">
          The original and the replies after it stay as the previous version.
        </span>
        <button type="button" className="button button-small" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-small button-primary" disabled={!changed || busy}>
          Send
        </button>
      </div>
    </form>
  )
}
