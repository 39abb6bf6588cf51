import { formatBytes, attachmentTypeLabel } from '../../../../../shared/domain/attachments'
import { CloseIcon, FileIcon } from '../../../components/icons'
import { useAttachmentsStore, type PendingAttachment } from '../../../stores/chat/attachments-store'
import { attachmentMeta } from '../../../components/message-attachments'

const NONE: PendingAttachment[] = []

export function usePendingAttachments(sessionId: string): PendingAttachment[] {
  return useAttachmentsStore((s) => s.pending[sessionId] ?? NONE)
}

/** The files attached to the draft, above the message box: thumbnail or icon, name, type and size, remove. */
export function ComposerAttachments({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const pending = usePendingAttachments(sessionId)
  const remove = useAttachmentsStore((s) => s.remove)
  if (pending.length === 0) return null
  return (
    <ul className="composer-attachments" aria-label="Attached files">
      {pending.map((p) => (
        <li
          key={p.key}
          className="composer-attachment"
          data-status={p.status}
          aria-busy={p.status === 'uploading' || undefined}
        >
          {p.preview ? (
            <img className="composer-attachment-thumb" src={p.preview} alt="" />
          ) : (
            <FileIcon width={18} height={18} className="file-chip-icon" />
          )}
          <span className="file-chip-text">
            <span className="file-chip-name" title={p.filename}>
              {p.filename}
            </span>
            <span className="file-chip-meta">
              {p.status === 'uploading'
                ? `Attaching… ${formatBytes(p.size)}`
                : p.part
                  ? attachmentMeta(p.part)
                  : `${attachmentTypeLabel(p.mediaType, p.filename)} · ${formatBytes(p.size)}`}
            </span>
          </span>
          <button
            type="button"
            className="icon-button composer-attachment-remove"
            aria-label={`Remove ${p.filename}`}
            title="Remove"
            disabled={disabled}
            onClick={() => remove(sessionId, p.key)}
          >
            <CloseIcon width={14} height={14} />
          </button>
        </li>
      ))}
    </ul>
  )
}
