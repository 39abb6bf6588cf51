export interface Box {
  top: number
  right: number
  bottom: number
  left: number
}

/** An open dialog, and the band its controls take (a title and description above them may be covered). */
export interface DialogBox extends Box {
  controlsTop?: number
}

export interface ToastPlacement {
  position: 'top-right' | 'top-center' | 'bottom-center' | 'bottom-right'
  offset: { top?: number; right?: number; bottom?: number }
  /** The toasts' width in px. */
  width: number
}

/** Sonner's own width, and about how tall one toast with a description is (when none is shown to measure). */
export const TOAST_WIDTH = 356
const TOAST_HEIGHT = 90
const GAP = 12
/** Under the chat header, where toasts go when nothing else is in the way. */
const HEADER_OFFSET = 64

/**
 * Where toasts go so they never cover a control: beside, above or below an open dialog when there is
 * room, else over its lower content (away from its header and close button); with no dialog, top
 * right under the header, pushed below the summary strip (with its Cancel) when that is in the way.
 */
export function placeToasts(
  viewport: { width: number; height: number },
  dialog: DialogBox | null,
  strip: Box | null,
  toastHeight = TOAST_HEIGHT
): ToastPlacement {
  const width = Math.min(TOAST_WIDTH, viewport.width - 2 * GAP)
  if (dialog) {
    const beside = viewport.width - dialog.right - 2 * GAP
    if (beside >= 280) return { position: 'top-right', offset: { top: Math.max(GAP, dialog.top), right: GAP }, width: Math.min(width, beside) }
    const needed = toastHeight + 2 * GAP
    if (dialog.top >= needed) return { position: 'top-center', offset: { top: GAP }, width }
    if (viewport.height - dialog.bottom >= needed) return { position: 'bottom-center', offset: { bottom: GAP }, width }
    // Over its title and description, where no control is.
    if ((dialog.controlsTop ?? dialog.top) >= needed) return { position: 'top-center', offset: { top: GAP }, width }
    // No room outside it: over the lower part of its content, clear of its header and its footer's buttons.
    return { position: 'bottom-right', offset: { bottom: Math.max(GAP, viewport.height - dialog.bottom + 72), right: Math.max(GAP, viewport.width - dialog.right + GAP) }, width }
  }
  const toastLeft = viewport.width - 24 - width
  const inTheWay = strip !== null && strip.right > toastLeft && strip.top < HEADER_OFFSET + toastHeight
  const top = inTheWay ? Math.min(strip.bottom + GAP, viewport.height / 2) : HEADER_OFFSET
  return { position: 'top-right', offset: { top, right: 24 }, width }
}
