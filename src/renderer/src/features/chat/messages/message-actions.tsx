import * as ContextMenu from '@radix-ui/react-context-menu'
import type { ReactNode } from 'react'
import { toast } from 'sonner'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { ChevronLeftIcon, ChevronRightIcon, CopyIcon, PencilIcon, RefreshIcon } from '../../../components/icons'
import { copyText } from '../../../lib/copy-text'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'
import { isStreaming } from '../../../stores/chat/thread'
import { PinButton, pinnable, usePin } from '../../../components/pin-action'
import './message-actions.css'

/** Why a summarized message offers no Edit or Regenerate. */
export const SUMMARIZED_READ_ONLY =
  'Already summarized: the summary stands for this message, so it can no longer be changed.'
const WAIT_FOR_REPLY = 'Wait for the reply to finish first.'

interface ActionsProps {
  message: ChatMessage
  /** false when the active summary stands for it: read-only. */
  inContext: boolean
  onEdit(): void
}

/** What can be done with a message now, and why not when it cannot. */
function useMessageActions({ message, inContext, onEdit }: ActionsProps) {
  const sessionId = message.sessionId
  const busy = useChatStore((s) => isStreaming(s.threads[sessionId]))
  const regenerate = useChatStore((s) => s.regenerate)
  const switchVersion = useChatStore((s) => s.switchVersion)
  const blocked = !inContext ? SUMMARIZED_READ_ONLY : busy ? WAIT_FOR_REPLY : null
  const report = (what: string) => (failure: string | null) => failure && toast.error(what, { description: failure })
  return {
    blocked,
    copy: async () => {
      const ok = await copyText(messageText(message.parts))
      if (ok) toast.success('Copied as Markdown')
      else toast.error('Could not copy the message')
    },
    change: () => {
      if (blocked) return
      if (message.role === 'user') onEdit()
      else void regenerate(sessionId, message.id).then(report('Could not regenerate the reply'))
    },
    show: (number: number) => {
      if (blocked) return
      void switchVersion(sessionId, message.id, number).then(report('Could not show that version'))
    }
  }
}

/** Copy, Edit (yours) or Regenerate (replies), and ‹ 2/3 › between versions: on hover, focus and right-click. */
export function MessageActions(props: ActionsProps) {
  const { message } = props
  const { blocked, copy, change, show } = useMessageActions(props)
  const version = message.version
  const changeLabel = message.role === 'user' ? 'Edit message' : 'Regenerate reply'
  return (
    <div
      className="message-actions"
      role="toolbar"
      aria-label="Message actions"
      data-has-versions={version ? true : undefined}
    >
      {version && (
        <span className="message-versions">
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label="Previous version"
            title={blocked ?? 'Previous version'}
            aria-disabled={blocked !== null || version.number === 1 || undefined}
            onClick={() => version.number > 1 && show(version.number - 1)}
          >
            <ChevronLeftIcon width={14} height={14} />
          </button>
          <span className="message-version-number" aria-label={`Version ${version.number} of ${version.count}`}>
            {version.number}/{version.count}
          </span>
          <button
            type="button"
            className="icon-button icon-button-small"
            aria-label="Next version"
            title={blocked ?? 'Next version'}
            aria-disabled={blocked !== null || version.number === version.count || undefined}
            onClick={() => version.number < version.count && show(version.number + 1)}
          >
            <ChevronRightIcon width={14} height={14} />
          </button>
        </span>
      )}
      <button
        type="button"
        className="icon-button icon-button-small message-action"
        aria-label="Copy as Markdown"
        title="Copy as Markdown"
        onClick={() => void copy()}
      >
        <CopyIcon width={14} height={14} />
      </button>
      {pinnable(message) && message.status !== 'streaming' && <PinButton message={message} />}
      {(message.role === 'user' || message.role === 'assistant') && (
        <button
          type="button"
          className="icon-button icon-button-small message-action"
          aria-label={changeLabel}
          // A disabled button shows no tooltip: this one stays focusable and says why.
          aria-disabled={blocked !== null || undefined}
          title={blocked ?? changeLabel}
          onClick={change}
        >
          {message.role === 'user' ? <PencilIcon width={14} height={14} /> : <RefreshIcon width={14} height={14} />}
        </button>
      )}
    </div>
  )
}

/** The same actions on right-click (and the context-menu key). */
export function MessageContextMenu(props: ActionsProps & { children: ReactNode }) {
  const { message, children } = props
  const { blocked, copy, change, show } = useMessageActions(props)
  const pin = usePin(message)
  const version = message.version
  return (
    <ContextMenu.Root>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu message-menu" aria-label="Message actions">
          <ContextMenu.Item className="menu-item" onSelect={() => void copy()}>
            Copy as Markdown
          </ContextMenu.Item>
          {pinnable(message) && message.status !== 'streaming' && (
            <ContextMenu.Item className="menu-item" onSelect={pin.toggle}>
              {pin.label}
            </ContextMenu.Item>
          )}
          {(message.role === 'user' || message.role === 'assistant') && (
            <ContextMenu.Item className="menu-item" disabled={blocked !== null} onSelect={change}>
              {message.role === 'user' ? 'Edit message' : 'Regenerate reply'}
            </ContextMenu.Item>
          )}
          {version && (
            <>
              <ContextMenu.Item
                className="menu-item"
                disabled={blocked !== null || version.number === 1}
                onSelect={() => show(version.number - 1)}
              >
                Previous version
              </ContextMenu.Item>
              <ContextMenu.Item
                className="menu-item"
                disabled={blocked !== null || version.number === version.count}
                onSelect={() => show(version.number + 1)}
              >
                Next version
              </ContextMenu.Item>
            </>
          )}
          {blocked === SUMMARIZED_READ_ONLY && <p className="message-menu-note">{SUMMARIZED_READ_ONLY}</p>}
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  )
}
