import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { useUsageStore } from '../../stores/usage-store'
import './cut-notes.css'

const tokens = (n: number) => `${n.toLocaleString()} token${n === 1 ? '' : 's'}`

/**
 * Before sending: the draft is larger than the model's window allows, so its middle will be cut
 * (FR-5.3.1). Said while typing, not after the request has gone.
 */
export function DraftCutWarning({ sessionId, draft }: { sessionId: string; draft: string }) {
  const cut = useUsageStore((s) => s.usage[sessionId]?.draftCut ?? 0)
  if (cut <= 0 || draft.trim() === '') return null
  return (
    <p className="cut-note draft-cut-warning" role="status">
      Too long for this model’s window: about {tokens(cut)} from the middle of this message will be left out
      when it is sent. The chat keeps the whole text.
    </p>
  )
}

/** After sending: this message went out shortened; the text shown is the whole original. */
export function SentCutNote({ message }: { message: ChatMessage }) {
  if (!message.sentCutTokens) return null
  return (
    <p className="cut-note sent-cut-note" role="note">
      Sent shortened: about {tokens(message.sentCutTokens)} were cut from the middle to fit the model’s window. The
      full text is kept here.
    </p>
  )
}
