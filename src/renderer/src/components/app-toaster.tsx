import { useEffect, useState, type CSSProperties } from 'react'
import { Toaster } from 'sonner'
import { placeToasts, type Box, type DialogBox, type ToastPlacement } from './toast-placement'

const box = (el: Element | null): Box | null => {
  if (!el) return null
  const r = el.getBoundingClientRect()
  return r.width > 0 && r.height > 0 ? { top: r.top, right: r.right, bottom: r.bottom, left: r.left } : null
}

const CONTROLS = 'button, input, textarea, select, a[href], [role="combobox"], [role="switch"], [role="button"]'

/** The dialog's box and the boxes of the controls it shows. */
function dialogBox(dialog: Element | null): DialogBox | null {
  const b = box(dialog)
  if (!b || !dialog) return b
  const controls = [...dialog.querySelectorAll(CONTROLS)]
    .map((c) => box(c))
    .filter((c): c is Box => c !== null && c.bottom > b.top && c.top < b.bottom)
  return { ...b, controls }
}

function measure(): ToastPlacement {
  const dialogs = [
    ...document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')
  ]
  // The tallest toast shown (one with a preview and an action is about twice a plain one).
  const tallest = Math.max(
    0,
    ...[...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')].map((t) => t.offsetHeight)
  )
  return placeToasts(
    { width: window.innerWidth, height: window.innerHeight },
    dialogBox(dialogs.at(-1) ?? null),
    box(document.querySelector('.summary-panel')),
    tallest || undefined
  )
}

const same = (a: ToastPlacement, b: ToastPlacement) =>
  a.position === b.position && a.width === b.width && JSON.stringify(a.offset) === JSON.stringify(b.offset)

/**
 * The app's toasts, placed clear of every control: they move beside or away from an open dialog, and
 * below the summary strip, as those come and go (DOM changes, scrolls and resizes, once per frame at most).
 */
export function AppToaster({ theme }: { theme: 'light' | 'dark' | 'system' }) {
  const [placement, setPlacement] = useState<ToastPlacement>(() => measure())

  useEffect(() => {
    let frame = 0
    const update = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const next = measure()
        setPlacement((current) => (same(current, next) ? current : next))
      })
    }
    const observer = new MutationObserver(update)
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-state', 'data-expanded']
    })
    window.addEventListener('resize', update)
    // A scrolled dialog brings other controls under the toast.
    document.addEventListener('scroll', update, true)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', update)
      document.removeEventListener('scroll', update, true)
      cancelAnimationFrame(frame)
    }
  }, [])

  return (
    <Toaster
      theme={theme}
      position={placement.position}
      offset={placement.offset}
      mobileOffset={placement.offset}
      style={{ '--width': `${placement.width}px` } as CSSProperties}
      closeButton
    />
  )
}
