import { useEffect, useRef, useState, type CSSProperties } from 'react'
import { Toaster } from 'sonner'
import { placeToasts, type Box, type DialogBox, type PageBoxes, type ToastPlacement } from './toast-placement'

const box = (el: Element | null): Box | null => {
  if (!el) return null
  const r = el.getBoundingClientRect()
  return r.width > 0 && r.height > 0 ? { top: r.top, right: r.right, bottom: r.bottom, left: r.left } : null
}

const hits = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

const CONTROLS = 'button, input, textarea, select, a[href], [role="combobox"], [role="switch"], [role="button"]'
/** On the page: the controls, and the surfaces made of them or read closely (the composer, the Summary panel, a menu). */
const PAGE_CONTROLS = `${CONTROLS}, [role="menuitem"], [role="menu"], .composer-box, .summary-panel, .jump-to-latest`
/** Read, not clicked: covered as little as can be. */
const PAGE_CONTENT = 'article.message, .pinned-list-item'
/** How far a toast keeps from the pointer. */
const POINTER_REACH = 24
/** How much of each toast behind the front one shows in sonner's collapsed stack (its gap), up to three. */
const STACK_PEEK = 14

/** The dialog's box and the boxes of the controls it shows. */
function dialogBox(dialog: Element | null): DialogBox | null {
  const b = box(dialog)
  if (!b || !dialog) return b
  const controls = [...dialog.querySelectorAll(CONTROLS)]
    .map((c) => box(c))
    .filter((c): c is Box => c !== null && c.bottom > b.top && c.top < b.bottom)
  return { ...b, controls }
}

/** The page's scrolling parts: what they hold is seen only inside them. */
const SCROLLERS = '.summary-panel, .summary-scroll, .summary-text, .message-scroll, .settings-scroll'

/** The part of the element shown: its box cut to the scrolling parts it sits in (none when scrolled out of sight). */
function shownBox(el: Element): Box | null {
  let b = box(el)
  for (let s = el.parentElement?.closest(SCROLLERS); b && s; s = s.parentElement?.closest(SCROLLERS)) {
    const c = box(s)
    if (!c) return null
    b = {
      top: Math.max(b.top, c.top),
      right: Math.min(b.right, c.right),
      bottom: Math.min(b.bottom, c.bottom),
      left: Math.max(b.left, c.left)
    }
    if (b.right <= b.left || b.bottom <= b.top) return null
  }
  return b
}

function boxesIn(root: Element, selector: string, area: Box): Box[] {
  return [...root.querySelectorAll(selector)]
    .filter((el) => !el.closest('[data-sonner-toaster]'))
    .map((el) => shownBox(el))
    .filter((b): b is Box => b !== null && hits(b, area))
}

/** The main pane under its header, its controls and its messages. */
function pageBoxes(): Omit<PageBoxes, 'pointer' | 'current' | 'arrived'> | null {
  const main = document.querySelector('.main')
  const m = box(main)
  if (!main || !m) return null
  const header = box(main.querySelector('.pane-header'))
  const area = { ...m, top: header ? header.bottom : m.top, bottom: Math.min(m.bottom, window.innerHeight) }
  return { area, controls: boxesIn(main, PAGE_CONTROLS, area), content: boxesIn(main, PAGE_CONTENT, area) }
}

interface Tracking {
  /** The last pointer position seen. */
  pointer: { x: number; y: number } | null
  /** The toasts already placed once (a new one must not land under the pointer). */
  seen: WeakSet<Element>
  /** Where the toasts are placed now. */
  placed: ToastPlacement | null
  /** Where the toasts are on screen, a little wider: the pointer there is on them. */
  toasts: Box | null
}

function measure(tracking: Tracking): ToastPlacement {
  const viewport = { width: window.innerWidth, height: window.innerHeight }
  const dialogs = [
    ...document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')
  ]
  const shown = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]:not([data-removed="true"])')]
  // Nothing shown, nothing to place: the page is measured again when a toast appears.
  if (shown.length === 0 && tracking.placed) {
    tracking.toasts = null
    return tracking.placed
  }
  const arrived = shown.some((t) => !tracking.seen.has(t))
  for (const t of shown) tracking.seen.add(t)
  // The tallest toast shown (one with a preview and an action is about twice a plain one), and the
  // edges of those stacked behind it.
  const tallest = Math.max(0, ...shown.map((t) => t.offsetHeight))
  const height = tallest ? tallest + STACK_PEEK * (Math.min(shown.length, 3) - 1) : undefined
  const boxes = shown.map((t) => box(t)).filter((b): b is Box => b !== null)
  tracking.toasts = boxes.length
    ? {
        top: Math.min(...boxes.map((b) => b.top)) - 8,
        right: Math.max(...boxes.map((b) => b.right)) + 8,
        bottom: Math.max(...boxes.map((b) => b.bottom)) + 8,
        left: Math.min(...boxes.map((b) => b.left)) - 8
      }
    : null

  const dialog = dialogBox(dialogs.at(-1) ?? null)
  if (dialog) return placeToasts(viewport, dialog, null, height)
  const page = pageBoxes()
  if (!page) return placeToasts(viewport, null, null, height)
  const { pointer, placed: current, toasts } = tracking
  const onToasts = pointer !== null && toasts !== null && hits(toasts, pointBox(pointer, 0))
  // On the toasts the pointer is using them; but toasts that could only go over a control move
  // aside from it, so that control can be reached.
  const avoid = pointer && (!onToasts || (current?.covered ?? 0) > 0) ? pointBox(pointer, POINTER_REACH) : null
  return placeToasts(viewport, null, { ...page, pointer: avoid, current, arrived }, height)
}

const pointBox = (p: { x: number; y: number }, reach: number): Box => ({
  top: p.y - reach,
  right: p.x + reach + 1,
  bottom: p.y + reach + 1,
  left: p.x - reach
})

const same = (a: ToastPlacement, b: ToastPlacement) =>
  a.position === b.position &&
  a.width === b.width &&
  a.covered === b.covered &&
  JSON.stringify(a.offset) === JSON.stringify(b.offset)

/**
 * The app's toasts, placed clear of every control: beside or away from an open dialog; over the
 * page where no button, field, message box or Summary panel is, and never under the pointer when
 * one appears (see placeToasts). They move as those come and go (DOM changes, scrolls and resizes,
 * once per frame at most). Where no such place is left, they move aside when the pointer comes near.
 */
export function AppToaster({ theme }: { theme: 'light' | 'dark' | 'system' }) {
  const tracking = useRef<Tracking>({ pointer: null, seen: new WeakSet(), placed: null, toasts: null })
  // Top right under the header until a toast appears and the page is measured.
  const [placement, setPlacement] = useState<ToastPlacement>(() =>
    placeToasts({ width: window.innerWidth, height: window.innerHeight }, null, null)
  )

  useEffect(() => {
    const t = tracking.current
    let frame = 0
    const update = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const next = measure(t)
        if (!t.placed || !same(t.placed, next)) t.placed = next
        setPlacement(t.placed)
      })
    }
    const observer = new MutationObserver(update)
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-state', 'data-expanded']
    })
    const onPointer = (event: PointerEvent) => {
      t.pointer = { x: event.clientX, y: event.clientY }
      // Toasts over a control get out of the way of a pointer coming near.
      if ((t.placed?.covered ?? 0) > 0 && t.toasts && hits(t.toasts, pointBox(t.pointer, POINTER_REACH))) update()
    }
    window.addEventListener('resize', update)
    document.addEventListener('pointermove', onPointer, { passive: true })
    document.addEventListener('pointerdown', onPointer, { passive: true })
    // A scrolled dialog or chat brings other controls under the toast.
    document.addEventListener('scroll', update, true)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', update)
      document.removeEventListener('pointermove', onPointer)
      document.removeEventListener('pointerdown', onPointer)
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
