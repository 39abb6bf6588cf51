import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type ReactNode } from 'react'
import { attachmentKind, attachmentTypeLabel, formatBytes } from '../../../shared/domain/attachments'
import type { AttachmentPart, MessagePart } from '../../../shared/domain/chat-message'
import { CloseIcon, FileIcon } from './icons'
import { useAttachmentsStore } from '../stores/chat/attachments-store'
import './message-attachments.css'

/** "PDF · 3 pages · 120 KB", "PNG · 640×480 · 48 KB", "TS · 1.2 KB". */
export function attachmentMeta(
  part: Pick<AttachmentPart, 'filename' | 'mediaType' | 'size' | 'pages' | 'width' | 'height'>
): string {
  const bits = [attachmentTypeLabel(part.mediaType, part.filename)]
  if (part.pages !== undefined) bits.push(`${part.pages} ${part.pages === 1 ? 'page' : 'pages'}`)
  if (part.width && part.height) bits.push(`${part.width}×${part.height}`)
  bits.push(formatBytes(part.size))
  return bits.join(' · ')
}

/** A stored image as a data URL, fetched the first time it is shown. */
function useAttachmentUrl(hash: string | undefined): string | undefined {
  const url = useAttachmentsStore((s) => (hash ? s.contents[hash] : undefined))
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (hash && !url && !failed)
      void useAttachmentsStore
        .getState()
        .load(hash)
        .catch(() => setFailed(true))
  }, [hash, url, failed])
  return url
}

function ImageAttachment({ part }: { part: AttachmentPart }) {
  const url = useAttachmentUrl(part.hash)
  const [open, setOpen] = useState(false)
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="attachment-thumb"
          aria-label={`View ${part.filename}`}
          title={`${part.filename} · ${attachmentMeta(part)}`}
        >
          {url ? (
            <img src={url} alt={part.filename} />
          ) : (
            <span className="attachment-thumb-loading" aria-hidden="true" />
          )}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="image-viewer" aria-describedby={undefined}>
          <header className="image-viewer-head">
            <Dialog.Title className="image-viewer-title">{part.filename}</Dialog.Title>
            <span className="image-viewer-meta">{attachmentMeta(part)}</span>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close">
                <CloseIcon />
              </button>
            </Dialog.Close>
          </header>
          {url && <img className="image-viewer-image" src={url} alt={part.filename} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** A file as a chip: its name, type, pages and size. */
export function FileChip({
  part
}: {
  part: Pick<AttachmentPart, 'filename' | 'mediaType' | 'size' | 'pages' | 'width' | 'height' | 'hash'>
}) {
  return (
    <span className="file-chip" title={part.hash ? part.filename : `${part.filename} (only its name was kept)`}>
      <FileIcon width={16} height={16} className="file-chip-icon" />
      <span className="file-chip-text">
        <span className="file-chip-name">{part.filename}</span>
        <span className="file-chip-meta">{attachmentMeta(part)}</span>
      </span>
    </span>
  )
}

/**
 * A message's files: image thumbnails that open a viewer, other files as chips. `attachAgain`: the
 * message left the active context, so each file offers to go with the next message of that chat.
 */
export function MessageAttachments({
  parts,
  attachAgain
}: {
  parts: readonly MessagePart[]
  attachAgain?: (part: AttachmentPart) => ReactNode
}) {
  const files = parts.filter((p): p is AttachmentPart => p.type === 'attachment')
  if (files.length === 0) return null
  return (
    <ul className="message-attachments" aria-label="Attachments">
      {files.map((part, i) => (
        <li key={i} className={attachAgain ? 'attachment-with-action' : undefined}>
          {part.hash && attachmentKind(part.mediaType, part.filename) === 'image' ? (
            <ImageAttachment part={part} />
          ) : (
            <FileChip part={part} />
          )}
          {attachAgain?.(part)}
        </li>
      ))}
    </ul>
  )
}
