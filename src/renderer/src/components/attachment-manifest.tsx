import { useEffect, useMemo } from 'react'
import { toast } from 'sonner'
import {
  attachmentKind,
  attachmentManifest,
  attachmentsLeftSentence,
  type ManifestItem
} from '../../../shared/domain/attachments'
import type { AttachmentPart } from '../../../shared/domain/chat-message'
import { formatFull } from '../lib/relative-time'
import { imageRefusal, useAttachmentsStore } from '../stores/chat/attachments-store'
import { useChatStore } from '../stores/chat/chat-store'
import { useManifestStore } from '../stores/chat/manifest-store'
import { useSummaryCutoff } from '../stores/compression-store'
import { FileChip } from './message-attachments'

/**
 * The files of the messages the active summary stands for, as the server lists them; until that
 * list arrives, those of the summarized messages loaded.
 */
export function useManifest(sessionId: string): ManifestItem[] {
  const messages = useChatStore((s) => s.threads[sessionId]?.messages)
  const cutoff = useSummaryCutoff(sessionId)
  const fetched = useManifestStore((s) => s.bySession[sessionId])
  useEffect(() => {
    if (cutoff > 0) useManifestStore.getState().ensure(sessionId, cutoff)
  }, [sessionId, cutoff])
  return useMemo(() => {
    if (cutoff <= 0) return []
    if (fetched?.cutoffSeq === cutoff) return fetched.items
    return messages ? attachmentManifest(messages, cutoff) : []
  }, [messages, cutoff, fetched])
}

/** Puts a file of an earlier message back on the draft, to go with the next message. */
export async function attachAgain(sessionId: string, part: AttachmentPart): Promise<void> {
  // An image for a model that cannot see is refused here, as when it is first attached.
  const unseen = attachmentKind(part.mediaType, part.filename) === 'image' ? await imageRefusal(sessionId) : null
  const refusal = unseen
    ? `“${part.filename}” is an image. ${unseen}`
    : useAttachmentsStore.getState().reattach(sessionId, part)
  if (refusal) toast.error('Not attached', { description: refusal })
  else toast.success(`${part.filename} attached again`, { description: 'It goes with your next message.' })
}

export function AttachAgainButton({ sessionId, part }: { sessionId: string; part: AttachmentPart }) {
  if (!part.hash) return null
  return (
    <button
      type="button"
      className="button button-small attach-again"
      aria-label={`Attach again: ${part.filename}`}
      onClick={() => void attachAgain(sessionId, part)}
    >
      Attach again
    </button>
  )
}

const ROLE: Record<string, string> = { user: 'you', assistant: 'the assistant' }

/** In the Summary: which attachments left the active context, each with "Attach again". */
export function AttachmentManifest({ sessionId }: { sessionId: string }) {
  const items = useManifest(sessionId)
  if (items.length === 0) return null
  return (
    <section className="attachment-manifest" aria-label="Attachments that left the active context">
      <p className="attachment-manifest-title">{attachmentsLeftSentence(items.length)}</p>
      <ul>
        {items.map((item, i) => {
          const part: AttachmentPart = { ...item, type: 'attachment' }
          return (
            <li key={i} className="attachment-manifest-item">
              <FileChip part={part} />
              <span className="attachment-manifest-where">
                {item.description && <span className="attachment-manifest-description">{item.description}</span>}
                Message {item.seq}, from {ROLE[item.role] ?? item.role}, {formatFull(item.createdAt)}
              </span>
              <AttachAgainButton sessionId={sessionId} part={part} />
            </li>
          )
        })}
      </ul>
    </section>
  )
}

/** Beside "N messages summarized": how many attachments left with them. */
export function ManifestBadge({ sessionId }: { sessionId: string }) {
  const left = useManifest(sessionId).length
  return left > 0 ? <span className="summary-badge">{attachmentsLeftSentence(left)}</span> : null
}

/** The compression notice's line: "2 attachments left the active context". */
export function ManifestNote({ sessionId, className }: { sessionId: string; className?: string }) {
  const left = useManifest(sessionId).length
  return left > 0 ? <span className={className}>{attachmentsLeftSentence(left)}.</span> : null
}
