import * as Dialog from '@radix-ui/react-dialog'
import { useRef, useState, type ReactNode } from 'react'

interface ConfirmDialogProps {
  open: boolean
  onOpenChange(open: boolean): void
  title: string
  description: ReactNode
  confirmLabel: string
  /** May return a promise; the dialog stays open (buttons disabled) until it settles. */
  onConfirm(): Promise<void> | void
  destructive?: boolean
}

/**
 * An alert dialog on top of Radix Dialog: focus trapped, Escape cancels, and the safe choice
 * ("Cancel") has the initial focus.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onOpenChange, title, description, confirmLabel, onConfirm, destructive = false } = props
  const cancelRef = useRef<HTMLButtonElement>(null)
  /** Without a Radix Trigger, focus must be handed back by hand to whatever opened the dialog. */
  const returnFocusRef = useRef<HTMLElement | null>(null)
  const [busy, setBusy] = useState(false)

  async function confirm() {
    setBusy(true)
    try {
      await onConfirm()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          role="alertdialog"
          className="dialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault()
            returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
            cancelRef.current?.focus()
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            const target = returnFocusRef.current
            returnFocusRef.current = null
            if (target?.isConnected) target.focus()
          }}
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button ref={cancelRef} type="button" className="button" disabled={busy}>
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={destructive ? 'button button-danger' : 'button button-primary'}
              disabled={busy}
              onClick={() => void confirm()}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
