import { useEffect, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import type { SessionSummary } from '../../../../../shared/domain/session'
import { errorMessage } from '../../../api/api-error'
import { PencilIcon, TrashIcon } from '../../../components/icons'
import { RelativeTime } from '../../../components/relative-time'
import { useSessionsStore } from '../../../stores/sessions-store'
import { DeleteChatDialog } from './delete-chat-dialog'
import { RenameField } from './rename-field'

interface SessionItemProps {
  session: SessionSummary
  active: boolean
  onOpen(id: string): void
  /** In a virtual list: where the row sits, and how the list measures it. */
  row?: { index: number; setSize: number; top: number; measure(element: HTMLElement | null): void }
}

/** One chat in the sidebar: its title, a one-line preview and when it last changed, plus Rename and Delete. */
export function SessionItem({ session, active, onOpen, row }: SessionItemProps) {
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const rename = useSessionsStore((s) => s.rename)
  const openRef = useRef<HTMLAnchorElement>(null)
  const refocus = useRef(false)
  const titleId = useId()
  const metaId = useId()

  useEffect(() => {
    if (!editing && refocus.current) {
      refocus.current = false
      openRef.current?.focus()
    }
  }, [editing])

  async function finishRename(title: string | null) {
    refocus.current = document.activeElement?.classList.contains('rename-field') ?? false
    setEditing(false)
    if (title === null) return
    try {
      await rename(session.id, title)
    } catch (error) {
      toast.error('Could not rename the chat', { description: errorMessage(error) })
    }
  }

  const preview = session.lastMessagePreview?.replace(/\s+/g, ' ').trim() || 'No messages yet'

  return (
    <li
      ref={row?.measure}
      className="session-item"
      data-active={active || undefined}
      data-editing={editing || undefined}
      data-index={row?.index}
      aria-posinset={row ? row.index + 1 : undefined}
      aria-setsize={row?.setSize}
      style={
        row ? { position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.top}px)` } : undefined
      }
    >
      {editing ? (
        <div className="session-rename">
          <RenameField initial={session.title} onDone={(title) => void finishRename(title)} />
        </div>
      ) : (
        <a
          ref={openRef}
          href={`#chat/${encodeURIComponent(session.id)}`}
          className="session-open"
          aria-current={active ? 'page' : undefined}
          aria-labelledby={titleId}
          aria-describedby={metaId}
          draggable={false}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
            event.preventDefault()
            onOpen(session.id)
          }}
          onDoubleClick={() => setEditing(true)}
        >
          <span className="session-line">
            <span id={titleId} className="session-title">
              {session.title}
            </span>
          </span>
          <span id={metaId} className="session-line session-meta">
            <span className="session-preview">{preview}</span>
            <RelativeTime className="session-time" timestamp={session.updatedAt} />
          </span>
        </a>
      )}
      {!editing && (
        <div className="session-actions">
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label="Rename"
            title="Rename"
            onClick={() => setEditing(true)}
          >
            <PencilIcon width={14} height={14} />
          </button>
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label="Delete"
            title="Delete"
            onClick={() => setConfirming(true)}
          >
            <TrashIcon width={14} height={14} />
          </button>
        </div>
      )}
      <DeleteChatDialog sessionId={session.id} title={session.title} open={confirming} onOpenChange={setConfirming} />
    </li>
  )
}
