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
  position: 'top-right' | 'top-left' | 'top-center' | 'bottom-center' | 'bottom-right' | 'bottom-left'
  offset: { top?: number; right?: number; bottom?: number; left?: number }
  /** The toasts' width in px. */
  width: number
  /** How many controls the toasts cover there (0 but where no place is free of them). */
  covered?: number
}

/**
 * The page around the toasts, measured: where they may go and what they must not cover. A toast
 * goes where it covers no control, as near the top right under the header as it can; between two
 * such places, the one covering less of the messages.
 */
export interface PageBoxes {
  /** The main pane under its header: toasts stay over it (never over the sidebar or the header). */
  area: Box
  /** Buttons, fields, links, the composer and the Summary panel: never covered while any place is free of them. */
  controls: Box[]
  /** Messages and pinned messages: covered as little as can be. */
  content?: Box[]
  /** Around the pointer: a toast never lands where the user is about to click. */
  pointer?: Box | null
  /** Where the toasts are now: kept while it covers no control (they do not wander as the chat scrolls). */
  current?: ToastPlacement | null
  /** A toast has just appeared: it moves off the pointer even if where the toasts are covers no control. */
  arrived?: boolean
}

/** Sonner's own width, and about how tall one toast with a description is (when none is shown to measure). */
export const TOAST_WIDTH = 356
const TOAST_HEIGHT = 90
const GAP = 12
/** Under the chat header, where toasts go when nothing else is in the way. */
const HEADER_OFFSET = 64
/** From the window's right edge: clear of the conversation's scrollbar. */
const RIGHT_INSET = 24

/**
 * Where toasts go so they never cover a control: beside, above or below an open dialog when there is
 * room, else over its lower content (away from its header and close button); with no dialog, over
 * the page where no control is (see PageBoxes), top right under the header when nothing is measured.
 */
export function placeToasts(
  viewport: { width: number; height: number },
  dialog: DialogBox | null,
  page: PageBoxes | null,
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
  if (!page) return { position: 'top-right', offset: { top: HEADER_OFFSET, right: RIGHT_INSET }, width }
  return overPage(viewport, page, toastHeight)
}

/** The toasts' box on screen for a top-* placement, `height` tall. */
function stackBox(viewport: { width: number }, p: ToastPlacement, height: number): Box {
  const left =
    p.position === 'top-right'
      ? viewport.width - (p.offset.right ?? 0) - p.width
      : p.position === 'top-left'
        ? (p.offset.left ?? 0)
        : (viewport.width - p.width) / 2
  const top = p.offset.top ?? 0
  return { top, left, right: left + p.width, bottom: top + height }
}

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top))

/** The place over the page covering no control and least of the messages, nearest the top right. */
function overPage(viewport: { width: number; height: number }, page: PageBoxes, height: number): ToastPlacement {
  const { area, controls, content = [], pointer = null, current = null } = page
  const width = Math.max(0, Math.min(TOAST_WIDTH, area.right - area.left - 2 * GAP, viewport.width - 2 * GAP))
  const coveredAt = (b: Box) => controls.filter((c) => hits(c, b)).length + (pointer && hits(pointer, b) ? 1 : 0)

  if (current && current.width === width && current.position.startsWith('top')) {
    const b = stackBox(viewport, current, height)
    const inside = b.left >= area.left && b.right <= area.right && b.top >= area.top && b.bottom <= area.bottom
    const covered = controls.filter((c) => hits(c, b)).length
    const underPointer = page.arrived === true && pointer !== null && hits(pointer, b)
    if (inside && covered === 0 && !underPointer) return current
  }

  const right = Math.min(area.right, viewport.width) - RIGHT_INSET - width
  const top = area.top + GAP
  const xs = new Set<number>()
  for (let x = right; x > area.left + GAP; x -= 24) xs.add(x)
  xs.add(right >= area.left + GAP ? area.left + GAP : right)
  const ys: number[] = []
  for (let y = top; y + height <= area.bottom - GAP; y += 8) ys.push(y)
  if (ys.length === 0) ys.push(top)

  let best: { x: number; y: number; covered: number; score: number } | null = null
  for (const x of xs)
    for (const y of ys) {
      const b = { left: x, right: x + width, top: y, bottom: y + height }
      const covered = coveredAt(b)
      const hidden = content.reduce((sum, c) => sum + overlap(b, c), 0)
      // A control covered outweighs everything; then the messages hidden and the way from the top right
      // (a whole toast over text weighs about as much as 200 px to the left or 400 px down).
      const score = covered * 1e9 + hidden / 4 + 40 * (right - x) + 20 * (y - top)
      if (!best || score < best.score) best = { x, y, covered, score }
    }
  const { x, y, covered } = best!
  return x === right
    ? { position: 'top-right', offset: { top: y, right: viewport.width - x - width }, width, covered }
    : { position: 'top-left', offset: { top: y, left: x }, width, covered }
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
