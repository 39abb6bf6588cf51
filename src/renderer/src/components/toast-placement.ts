export interface Box {
  top: number
  right: number
  bottom: number
  left: number
}

/** An open dialog and the boxes of the controls it shows (a title and description may be covered, they never). */
export interface DialogBox extends Box {
  controls?: Box[]
}

export interface ToastPlacement {
  position: 'top-right' | 'top-center' | 'bottom-center' | 'bottom-right' | 'bottom-left'
  offset: { top?: number; right?: number; bottom?: number; left?: number }
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
    if (beside >= 280)
      return {
        position: 'top-right',
        offset: { top: Math.max(GAP, dialog.top), right: GAP },
        width: Math.min(width, beside)
      }
    const needed = toastHeight + 2 * GAP
    if (dialog.top >= needed) return { position: 'top-center', offset: { top: GAP }, width }
    if (viewport.height - dialog.bottom >= needed) return { position: 'bottom-center', offset: { bottom: GAP }, width }
    const controls = dialog.controls ?? []
    // Over its title and description, where no control is.
    const controlsTop = Math.min(dialog.bottom, ...controls.map((c) => c.top))
    if (controlsTop >= needed) return { position: 'top-center', offset: { top: GAP }, width }
    return overContent(viewport, dialog, controls, width, toastHeight)
  }
  const toastLeft = viewport.width - 24 - width
  const inTheWay = strip !== null && strip.right > toastLeft && strip.top < HEADER_OFFSET + toastHeight
  const top = inTheWay ? Math.min(strip.bottom + GAP, viewport.height / 2) : HEADER_OFFSET
  return { position: 'top-right', offset: { top, right: 24 }, width }
}

const hits = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/**
 * No room outside the dialog: over its content, at the lowest place on its right, left or middle
 * that covers none of its controls (Copy on a code block, a search result), else the one covering fewest.
 */
function overContent(
  viewport: { width: number; height: number },
  dialog: DialogBox,
  controls: Box[],
  width: number,
  height: number
): ToastPlacement {
  const inset = GAP
  const right = Math.max(GAP, viewport.width - dialog.right + inset)
  const left = Math.max(GAP, dialog.left + inset)
  let best: { placement: ToastPlacement; covered: number } | null = null
  for (
    let bottom = Math.max(GAP, viewport.height - dialog.bottom + inset);
    bottom + height <= viewport.height - dialog.top;
    bottom += 24
  ) {
    const top = viewport.height - bottom - height
    const candidates: Array<[ToastPlacement, Box]> = [
      [
        { position: 'bottom-right', offset: { bottom, right }, width },
        { top, bottom: top + height, right: viewport.width - right, left: viewport.width - right - width }
      ],
      [
        { position: 'bottom-left', offset: { bottom, left }, width },
        { top, bottom: top + height, left, right: left + width }
      ],
      [
        { position: 'bottom-center', offset: { bottom }, width },
        { top, bottom: top + height, left: (viewport.width - width) / 2, right: (viewport.width + width) / 2 }
      ]
    ]
    for (const [placement, box] of candidates) {
      const covered = controls.filter((c) => hits(c, box)).length
      if (covered === 0) return placement
      if (!best || covered < best.covered) best = { placement, covered }
    }
  }
  return best?.placement ?? { position: 'bottom-right', offset: { bottom: GAP, right }, width }
}
