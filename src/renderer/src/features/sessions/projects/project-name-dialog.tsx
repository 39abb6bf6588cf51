import * as Dialog from '@radix-ui/react-dialog'
import { useState } from 'react'
import { toast } from 'sonner'
import { errorMessage } from '../../../api/api-error'

interface ProjectNameDialogProps {
  open: boolean
  onOpenChange(open: boolean): void
  title: string
  initial?: string
  confirmLabel: string
  /** Saves the trimmed name; the dialog stays open when it throws. */
  onSave(name: string): Promise<unknown>
}

/** Names a new project, or renames one. */
export function ProjectNameDialog({
  open,
  onOpenChange,
  title,
  initial = '',
  confirmLabel,
  onSave
}: ProjectNameDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {open && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <NameForm
              initial={initial}
              confirmLabel={confirmLabel}
              onSave={onSave}
              onDone={() => onOpenChange(false)}
            />
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

function NameForm(props: {
  initial: string
  confirmLabel: string
  onSave(name: string): Promise<unknown>
  onDone(): void
}) {
  const [name, setName] = useState(props.initial)
  const [busy, setBusy] = useState(false)
  const trimmed = name.trim()

  async function submit() {
    setBusy(true)
    try {
      await props.onSave(trimmed)
      props.onDone()
    } catch (error) {
      toast.error('Could not save the project', { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        if (trimmed) void submit()
      }}
    >
      <label className="project-name-field">
        <span>Name</span>
        <input
          className="input"
          value={name}
          maxLength={100}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="button" disabled={busy}>
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button button-primary" disabled={busy || !trimmed}>
          {props.confirmLabel}
        </button>
      </div>
    </form>
  )
}
