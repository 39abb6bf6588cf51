import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { pinsCut } from '../../../../../shared/domain/pins'
import { useUiStore } from '../../../stores/ui-store'
import { useUsageStore } from '../../../stores/usage-store'
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
      Too long for this model’s window: about {tokens(cut)} from the middle of this message will be left out when it is
      sent. The chat keeps the whole text.
    </p>
  )
}

/**
 * Beside the message box: the pins are more than the model's window can carry, so every request
 * sends them cut in the middle (a window made smaller since they were pinned). Said before a send.
 */
export function PinsCutWarning({ sessionId }: { sessionId: string }) {
  const pins = useUsageStore((s) => s.usage[sessionId]?.pins)
  if (!pins?.cutTokens) return null
  return (
    <p className="cut-note pins-cut-warning" role="status">
      {pinsCut(pins.percent, pins.cutTokens)}
    </p>
  )
}

/** Opens the Summarize dialog of the open chat. */
function SummarizeButton() {
  return (
    <button type="button" className="cut-note-action" onClick={() => useUiStore.getState().setChatDialog('summarize')}>
      Summarize
    </button>
  )
}

/**
 * Beside the message box, before a send: with auto-compression off, the next request would leave
 * out the chat's oldest unsummarized messages (they no longer fit). Said with the way out.
 */
export function LeftOutWarning({ sessionId }: { sessionId: string }) {
  const n = useUsageStore((s) => s.usage[sessionId]?.leftOut ?? 0)
  if (n <= 0) return null
  return (
    <p className="cut-note left-out-warning" role="status">
      Auto-compression is off: the next message goes without the{' '}
      {n === 1 ? 'oldest message' : `${n.toLocaleString()} oldest messages`} of this chat, which no longer fit the
      model’s window. <SummarizeButton />
    </p>
  )
}

/**
 * On a reply whose request could not carry the chat's oldest unsummarized messages (auto-compression
 * off, or it failed): said in the chat, never silent.
 */
export function LeftOutNote({ message }: { message: ChatMessage }) {
  const n = message.sentWithoutMessages
  if (!n) return null
  return (
    <p className="cut-note left-out-note" role="note">
      Answered without the {n === 1 ? 'oldest message' : `${n.toLocaleString()} oldest messages`} of this chat: they did
      not fit the model’s window and no summary holds them. Summarize (or turn auto-compression on) to keep them in
      context. <SummarizeButton />
    </p>
  )
}

/** After sending: this message went out shortened; the text shown is the whole original. */
export function SentCutNote({ message }: { message: ChatMessage }) {
  if (!message.sentCutTokens) return null
  return (
    <p className="cut-note sent-cut-note" role="note">
      Sent shortened: about {tokens(message.sentCutTokens)} were cut from the middle to fit the model’s window. The full
      text is kept here.
    </p>
  )
}
