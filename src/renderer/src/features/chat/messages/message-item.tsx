import { memo, useEffect, useState } from 'react'
import { toast } from 'sonner'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { MarkdownText } from '../../../components/markdown-text'
import { PROVIDER_LABELS } from '../../../lib/providers'
import { formatClock, formatFull } from '../../../lib/relative-time'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useChatSettings } from '../../../stores/chat-settings'
import { useUiStore } from '../../../stores/ui-store'
import { RecalledNote } from './recalled-note'
import { LeftOutNote, SentCutNote } from './cut-notes'
import { MessageActions, MessageContextMenu } from './message-actions'
import { PinnedMark } from '../../../components/pin-action'
import { AttachAgainButton } from '../../../components/attachment-manifest'
import { MessageAttachments } from '../../../components/message-attachments'
import { MessageEditor } from './message-editor'

const SPEAKER: Record<ChatMessage['role'], string> = {
  user: 'You said:',
  assistant: 'Assistant said:',
  system: 'System instruction:',
  tool: 'Tool result:'
}

interface MessageItemProps {
  message: ChatMessage
  /** The last reply failed or was stopped: offer to run it again. */
  canRetry: boolean
  /** false when the active summary stands for it: shown dimmed, marked "Not in context". */
  inContext?: boolean
  /** A reply that waits for a compression to finish before it starts. */
  waitingForSummary?: boolean
}

/** Failures that a key or an address in Settings fixes. */
const FIXED_IN_SETTINGS = new Set(['not_configured', 'invalid_key', 'unreachable'])

/**
 * One message: yours and the assistant's as Markdown with highlighted code (your line breaks kept),
 * system and tool messages as plain text; its actions on hover, focus and right-click.
 */
export const MessageItem = memo(function MessageItem({
  message,
  canRetry,
  inContext = true,
  waitingForSummary = false
}: MessageItemProps) {
  const text = messageText(message.parts)
  const streaming = message.status === 'streaming'
  const markdown = message.role === 'assistant' || message.role === 'user'
  const [editing, setEditing] = useState(false)
  const actionProps = { message, inContext, onEdit: () => setEditing(true) }
  return (
    <MessageContextMenu {...actionProps}>
      <article
        className="message"
        data-role={message.role}
        data-status={message.status}
        // A pinned message is sent word for word even once summarized: it does not step back.
        data-in-context={inContext || message.pinnedAt !== undefined ? undefined : 'false'}
        data-pinned={message.pinnedAt !== undefined || undefined}
        aria-busy={streaming || undefined}
      >
        <h2 className="sr-only">{SPEAKER[message.role]}</h2>
        <div className="message-body">
          {editing && <MessageEditor message={message} onClose={() => setEditing(false)} />}
          {text !== '' &&
            !editing &&
            (markdown ? (
              <MarkdownText
                className="message-text message-markdown"
                text={text}
                streaming={streaming}
                typed={message.role === 'user'}
              />
            ) : (
              <div className="message-text">
                {text}
                {streaming && <span className="stream-caret" aria-hidden="true" />}
              </div>
            ))}
          {streaming && text === '' && (
            <span className="typing" role="status">
              <span className="typing-dot" aria-hidden="true" />
              <span className="typing-dot" aria-hidden="true" />
              <span className="typing-dot" aria-hidden="true" />
              {waitingForSummary ? (
                <span className="typing-note">Waiting for the summary…</span>
              ) : (
                <WaitingNote sessionId={message.sessionId} since={message.createdAt} />
              )}
            </span>
          )}
          <MessageAttachments
            parts={message.parts}
            attachAgain={
              inContext ? undefined : (part) => <AttachAgainButton sessionId={message.sessionId} part={part} />
            }
          />
          {message.status === 'error' && (
            <div className="message-error" role="note">
              <p>{message.error?.message ?? 'The reply failed.'}</p>
              {(canRetry || FIXED_IN_SETTINGS.has(message.error?.code ?? '')) && (
                <div className="message-error-actions">
                  {FIXED_IN_SETTINGS.has(message.error?.code ?? '') && <OpenSettingsButton />}
                  {canRetry && <RetryButton sessionId={message.sessionId} />}
                </div>
              )}
            </div>
          )}
          {message.status === 'aborted' && (
            <div className="message-stopped">
              <span>{message.error?.message ?? 'Stopped.'}</span>
              {canRetry && <RetryButton sessionId={message.sessionId} />}
            </div>
          )}
        </div>
        {markdown && <RecalledNote message={message} />}
        <SentCutNote message={message} />
        <LeftOutNote message={message} />
        {(!streaming || !inContext) && (
          <p className="message-meta">
            {message.pinnedAt !== undefined && <PinnedMark />}
            {!inContext && message.pinnedAt === undefined && <span className="not-in-context">Not in context</span>}
            {!streaming && !editing && <MessageActions {...actionProps} />}
            {!streaming && (
              <time
                className="message-time"
                dateTime={new Date(message.createdAt).toISOString()}
                title={formatFull(message.createdAt)}
              >
                {formatClock(message.createdAt)}
              </time>
            )}
          </p>
        )}
      </article>
    </MessageContextMenu>
  )
})

/** Quiet for the first seconds; after that, who is awaited and for how long. */
const SHOW_WAIT_AFTER_S = 3

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
}

function WaitingNote({ sessionId, since }: { sessionId: string; since: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  // The stored session itself: a selector must return the same thing for the same state.
  const session = useSessionsStore((s) => s.details[sessionId] ?? s.sessions.find((item) => item.id === sessionId))
  const chat = useChatSettings(session)
  const seconds = Math.max(0, Math.floor((now - since) / 1000))
  if (seconds < SHOW_WAIT_AFTER_S) return <span className="sr-only">The assistant is replying…</span>
  const provider = chat?.provider
  const model = chat?.modelId
  const name =
    model && provider ? `${model} (${PROVIDER_LABELS[provider]})` : provider ? PROVIDER_LABELS[provider] : 'the model'
  return (
    <span className="typing-note">
      Waiting for {name}… {/* The count changes every second; screen readers hear the sentence once. */}
      <span aria-hidden="true">{formatWait(seconds)}</span>
    </span>
  )
}

function OpenSettingsButton() {
  const openSettings = useUiStore((s) => s.openSettings)
  return (
    <button type="button" className="button button-small" onClick={() => openSettings('providers')}>
      Open Settings
    </button>
  )
}

function RetryButton({ sessionId }: { sessionId: string }) {
  const retry = useChatStore((s) => s.retry)
  const [busy, setBusy] = useState(false)
  return (
    <button
      type="button"
      className="button button-small"
      disabled={busy}
      onClick={async () => {
        setBusy(true)
        const failure = await retry(sessionId)
        setBusy(false)
        if (failure) toast.error('Could not retry', { description: failure })
      }}
    >
      Retry
    </button>
  )
}
