import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { errorMessage, isApiError } from '../../../api/api-error'
import { InstructionsIcon } from '../../../components/icons'
import { useSessionDetails, useSessionsStore } from '../../../stores/sessions-store'

/** The chat's system prompt: a header button and the Radix dialog that edits it. */
export function SystemPromptButton({ sessionId }: { sessionId: string }) {
  const session = useSessionDetails(sessionId)
  const [open, setOpen] = useState(false)
  const hasPrompt = !!session?.systemPrompt?.trim()
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="icon-button header-button"
          aria-label="System prompt"
          title={hasPrompt ? 'System prompt (set)' : 'System prompt'}
          data-active={hasPrompt || undefined}
          disabled={!session}
        >
          <InstructionsIcon />
          {hasPrompt && <span className="header-button-dot" aria-hidden="true" />}
        </button>
      </Dialog.Trigger>
      {open && session && (
        <SystemPromptDialog sessionId={sessionId} initial={session.systemPrompt ?? ''} onDone={() => setOpen(false)} />
      )}
    </Dialog.Root>
  )
}

function SystemPromptDialog({ sessionId, initial, onDone }: { sessionId: string; initial: string; onDone(): void }) {
  const update = useSessionsStore((s) => s.update)
  const [text, setText] = useState(initial)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const descriptionId = useId()
  const errorId = useId()

  async function save(event?: FormEvent) {
    event?.preventDefault()
    if (saving) return
    const next = text.trim() === '' ? null : text
    if ((next ?? '') === initial) {
      onDone()
      return
    }
    setSaving(true)
    try {
      await update(sessionId, { systemPrompt: next })
      toast.success(next === null ? 'System prompt removed' : 'System prompt saved')
      onDone()
    } catch (err) {
      setError(isApiError(err) ? (err.fieldErrors().systemPrompt ?? err.message) : errorMessage(err))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Portal>
      <Dialog.Overlay className="dialog-overlay" />
      <Dialog.Content className="dialog dialog-wide" aria-describedby={descriptionId}>
        <form onSubmit={(event) => void save(event)}>
          <Dialog.Title className="dialog-title">System prompt</Dialog.Title>
          <p id={descriptionId} className="dialog-description">
            Instructions the model follows throughout this chat, such as a role, a tone or rules. They are sent with
            every request and count toward the context.
          </p>
          <textarea
            className="input textarea system-prompt-input"
            aria-label="System prompt"
            aria-describedby={error ? `${errorId} ${descriptionId}` : descriptionId}
            aria-invalid={error ? true : undefined}
            placeholder="You are a concise assistant. Answer in plain English."
            rows={8}
            value={text}
            disabled={saving}
            onChange={(event) => {
              setText(event.target.value)
              setError(null)
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                event.preventDefault()
                void save()
              }
            }}
          />
          {error && (
            <p id={errorId} className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <span className="dialog-hint">
              <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save
            </span>
            <Dialog.Close asChild>
              <button type="button" className="button" disabled={saving}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="submit" className="button button-primary" disabled={saving}>
              Save
            </button>
          </div>
        </form>
      </Dialog.Content>
    </Dialog.Portal>
  )
}
