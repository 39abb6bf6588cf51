import { toast } from 'sonner'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'
import { PinIcon } from './icons'

/** Only the user's messages and replies can be pinned (a tool result goes with its call). */
export const pinnable = (message: ChatMessage) => message.role === 'user' || message.role === 'assistant'

/** Pin or unpin; a refusal (pins past their share of the budget) is shown as the server says it. */
export function usePin(message: ChatMessage) {
  const pinned = message.pinnedAt !== undefined
  return {
    pinned,
    label: pinned ? 'Unpin message' : 'Pin message',
    toggle: () => {
      api
        .request('chat.pin', { sessionId: message.sessionId, messageId: message.id, pinned: !pinned })
        .then(() => toast.success(pinned ? 'Unpinned' : 'Pinned: sent word for word in every request'))
        .catch((error: unknown) =>
          toast.error(pinned ? 'Could not unpin the message' : 'Could not pin the message', {
            description: errorMessage(error)
          })
        )
    }
  }
}

/** The pin button among a message's actions. */
export function PinButton({ message }: { message: ChatMessage }) {
  const { pinned, label, toggle } = usePin(message)
  return (
    <button
      type="button"
      className="icon-button icon-button-small message-action"
      aria-label={label}
      // The label says the state ("Unpin message"): aria-pressed as well would say it twice.
      data-pinned={pinned || undefined}
      title={label}
      onClick={toggle}
    >
      <PinIcon width={14} height={14} />
    </button>
  )
}

/** The mark a pinned message carries (in the chat and in Full history). */
export function PinnedMark() {
  return (
    <span className="pinned-mark" title="Pinned: sent word for word in every request, never summarized away">
      <PinIcon width={12} height={12} /> Pinned
    </span>
  )
}
