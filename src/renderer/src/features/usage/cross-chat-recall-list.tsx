import { useState } from 'react'
import { toast } from 'sonner'
import type { ContextUsage, CrossChatPassage } from '../../../../shared/contract'
import { api } from '../../api/client'
import { errorMessage } from '../../api/api-error'
import { useChatStore } from '../../stores/chat/chat-store'

const PREVIEW_CHARS = 160

/**
 * The passages the draft would recall from other chats of the project, each with its chat and date,
 * and "Leave out" for the next request (kept until that request is sent).
 */
export function CrossChatRecallList({ usage }: { usage: ContextUsage }) {
  const hasDraft = useChatStore((s) => Boolean(s.drafts[usage.sessionId]?.trim()))
  // A keystroke's count does not plan Recall: the last plan stays shown until the next one.
  const [last, setLast] = useState(usage.crossChat)
  const [planned, setPlanned] = useState(usage.crossChat)
  const [busy, setBusy] = useState<string | null>(null)
  // A new plan replaces what was shown (and any Leave out shown ahead of it).
  if (usage.crossChat && usage.crossChat !== planned) {
    setPlanned(usage.crossChat)
    setLast(usage.crossChat)
  }
  const shown = hasDraft ? last : usage.crossChat
  if (!shown || (shown.passages.length === 0 && shown.leftOut.length === 0)) return null

  async function leaveOut(passage: CrossChatPassage, leftOut: boolean) {
    setBusy(passage.messageId)
    try {
      await api.request('recall.leaveOut', { sessionId: usage.sessionId, messageId: passage.messageId, leftOut })
      setLast(
        (prev) =>
          prev && {
            passages: leftOut ? prev.passages.filter((p) => p.messageId !== passage.messageId) : prev.passages,
            leftOut: leftOut
              ? [...prev.leftOut, passage]
              : prev.leftOut.filter((p) => p.messageId !== passage.messageId)
          }
      )
    } catch (error) {
      toast.error('Could not change what is recalled', { description: errorMessage(error) })
    } finally {
      setBusy(null)
    }
  }

  const row = (passage: CrossChatPassage, out: boolean) => (
    <li key={passage.messageId} className="cross-recall-item" data-left-out={out || undefined}>
      <div className="cross-recall-source">
        From the chat <strong>“{passage.chatTitle}”</strong>, {passage.date}
      </div>
      <div className="cross-recall-text">
        {passage.role}:{' '}
        {passage.text.length > PREVIEW_CHARS ? `${passage.text.slice(0, PREVIEW_CHARS)}…` : passage.text}
      </div>
      <button
        type="button"
        className="button button-small"
        disabled={busy === passage.messageId}
        aria-label={`${out ? 'Include again' : 'Leave out'}: passage from “${passage.chatTitle}”, ${passage.date}`}
        onClick={() => void leaveOut(passage, !out)}
      >
        {out ? 'Include again' : 'Leave out'}
      </button>
    </li>
  )

  return (
    <section className="cross-recall" aria-label="Recalled from other chats of the project">
      <h3 className="cross-recall-title">Recalled from other chats of the project</h3>
      <ul className="cross-recall-list">{shown.passages.map((p) => row(p, false))}</ul>
      {shown.leftOut.length > 0 && (
        <>
          <p className="muted cross-recall-note">Left out of the next request:</p>
          <ul className="cross-recall-list">{shown.leftOut.map((p) => row(p, true))}</ul>
        </>
      )}
    </section>
  )
}
