import { useRef } from 'react'

/**
 * Radix hands focus back to a Dialog.Trigger only. Dialogs opened otherwise (a shortcut, a toast,
 * another dialog) use these handlers to give it back to whatever had it, or to the composer.
 */
export function useReturnFocus(): {
  onOpenAutoFocus(event: Event): void
  onCloseAutoFocus(event: Event): void
} {
  const opener = useRef<HTMLElement | null>(null)
  return {
    onOpenAutoFocus() {
      // Radix moves focus after this handler runs: what has it now is what opened the dialog.
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    },
    onCloseAutoFocus(event) {
      event.preventDefault()
      const target = opener.current
      opener.current = null
      if (target?.isConnected && target !== document.body) target.focus()
      else document.querySelector<HTMLElement>('textarea[aria-label="Message"]')?.focus()
    }
  }
}
