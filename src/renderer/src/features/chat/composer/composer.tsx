import { useEffect, useId, useRef } from 'react'
import { toast } from 'sonner'
import { ArrowUpIcon, PaperclipIcon, StopIcon } from '../../../components/icons'
import { useAttachmentsStore } from '../../../stores/chat/attachments-store'
import { useChatStore } from '../../../stores/chat/chat-store'
import { isStreaming } from '../../../stores/chat/thread'
import { ATTACH_ACCEPT, attachFiles } from './attach-files'
import { ComposerAttachments, usePendingAttachments } from './composer-attachments'
import { DraftCutWarning, LeftOutWarning, PinsCutWarning } from '../messages/cut-notes'
import './composer.css'

/**
 * The message box: Enter sends, Shift+Enter adds a line. What is typed, and the files attached
 * (button, paste, or drop on the chat), survive a failed send.
 */
export function Composer({ sessionId }: { sessionId: string }) {
  const draft = useChatStore((s) => s.drafts[sessionId] ?? '')
  const sending = useChatStore((s) => s.sending[sessionId] ?? false)
  const error = useChatStore((s) => s.sendErrors[sessionId] ?? null)
  const setDraft = useChatStore((s) => s.setDraft)
  const send = useChatStore((s) => s.send)
  const stop = useChatStore((s) => s.stop)
  const streaming = useChatStore((s) => isStreaming(s.threads[sessionId]))
  const editing = useChatStore((s) => s.editing[sessionId] ?? null)
  const textareaRef = useRef<HTMLTextAreaElement>(null)
  const fileInputRef = useRef<HTMLInputElement>(null)
  const pending = usePendingAttachments(sessionId)
  const ready = pending.filter((p) => p.status === 'ready' && p.part?.hash)
  const uploading = pending.some((p) => p.status === 'uploading')
  const hintId = useId()
  const errorId = useId()

  useEffect(() => {
    textareaRef.current?.focus()
  }, [sessionId])

  const canSend = (draft.trim() !== '' || ready.length > 0) && !uploading && !sending && !streaming

  async function submit() {
    if (!canSend) return
    const failure = await send(
      sessionId,
      ready.map((p) => ({ hash: p.part!.hash!, filename: p.part!.filename }))
    )
    if (failure) toast.error('Message not sent', { description: failure })
    else useAttachmentsStore.getState().clear(sessionId)
    textareaRef.current?.focus()
  }

  /** Back to writing a new message: the box empties. */
  function cancelEdit() {
    setDraft(sessionId, '')
    textareaRef.current?.focus()
  }

  async function stopReply() {
    const failure = await stop(sessionId)
    if (failure) toast.error('Could not stop the reply', { description: failure })
    textareaRef.current?.focus()
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <LeftOutWarning sessionId={sessionId} />
      <PinsCutWarning sessionId={sessionId} />
      <DraftCutWarning sessionId={sessionId} draft={draft} />
      {editing && (
        <div className="composer-editing" role="status">
          <span>Editing your last message — sending makes a new version of it.</span>
          <button type="button" className="button button-small button-ghost" onClick={cancelEdit}>
            Cancel edit
          </button>
        </div>
      )}
      <div className="composer-box" data-invalid={error ? true : undefined}>
        <ComposerAttachments sessionId={sessionId} disabled={sending} />
        <button
          type="button"
          className="icon-button attach-button"
          aria-label="Attach files"
          title="Attach images, PDFs, text or code files"
          disabled={sending}
          onClick={() => fileInputRef.current?.click()}
        >
          <PaperclipIcon width={18} height={18} />
        </button>
        <input
          ref={fileInputRef}
          type="file"
          multiple
          hidden
          accept={ATTACH_ACCEPT}
          data-testid="attach-input"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            event.target.value = ''
            void attachFiles(sessionId, files).then(() => textareaRef.current?.focus())
          }}
        />
        <textarea
          ref={textareaRef}
          className="composer-input"
          aria-label="Message"
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          aria-invalid={error ? true : undefined}
          placeholder="Message Distill"
          rows={1}
          value={draft}
          readOnly={sending}
          onChange={(event) => setDraft(sessionId, event.target.value)}
          onPaste={(event) => {
            // A pasted screenshot or copied file is attached; pasted text stays text.
            const files = [...event.clipboardData.files]
            if (files.length === 0) return
            event.preventDefault()
            void attachFiles(sessionId, files)
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && editing) {
              event.preventDefault()
              event.stopPropagation()
              cancelEdit()
            } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault()
              void submit()
            }
          }}
        />
        {streaming ? (
          <button
            type="button"
            className="send-button stop-button"
            aria-label="Stop"
            title="Stop"
            onClick={() => void stopReply()}
          >
            <StopIcon width={14} height={14} />
          </button>
        ) : (
          <button
            type="submit"
            className="send-button"
            aria-label="Send"
            title={editing ? 'Send as a new version of your last message' : 'Send'}
            disabled={!canSend}
          >
            {sending ? <span className="spinner" aria-hidden="true" /> : <ArrowUpIcon width={18} height={18} />}
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error composer-error" role="alert">
          Not sent: {error}
        </p>
      )}
      <p id={hintId} className="composer-hint">
        <kbd>Enter</kbd> to send, <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
      </p>
    </form>
  )
}
