import { describe, expect, it } from 'vitest'
import { placeToasts } from './toast-placement'

const box = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  right: left + width,
  bottom: top + height
})
const hits = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom

/** Where the toast would be on screen, for the positions placeToasts uses. */
function toastBox(vw: number, vh: number, p: ReturnType<typeof placeToasts>, h = 90) {
  const left = p.position.endsWith('right')
    ? vw - (p.offset.right ?? 0) - p.width
    : p.position.endsWith('left')
      ? (p.offset.left ?? 0)
      : (vw - p.width) / 2
  const top = p.position.startsWith('top') ? (p.offset.top ?? 0) : vh - (p.offset.bottom ?? 0) - h
  return box(left, top, p.width, h)
}

describe('toast placement', () => {
  it('sits under the header when nothing is in the way', () => {
    expect(placeToasts({ width: 1440, height: 900 }, null, null)).toEqual({
      position: 'top-right',
      offset: { top: 64, right: 24 },
      width: 356
    })
  })

  it('goes below the summary strip when the strip reaches under it', () => {
    const strip = box(504, 64, 712, 48) // "Summarizing… Cancel" at 1440×900
    const page = { area: box(280, 52, 1160, 848), controls: [strip] }
    const placed = placeToasts({ width: 1440, height: 900 }, null, page)
    expect(hits(toastBox(1440, 900, placed), strip)).toBe(false)
    expect(placed.covered).toBe(0)
  })

  // 1024×700 with the sidebar open, just after "Accept": the Summary panel, a reply with a Copy button and
  // its actions, the composer.
  const area = box(280, 52, 744, 648)
  const panel = box(296, 64, 712, 256)
  const copy = box(930, 470, 50, 26)
  const actions = box(304, 560, 120, 28)
  const composer = box(304, 606, 696, 54)
  const reply = box(304, 330, 680, 260)

  it('covers no control of the page, and as little of the messages as it can', () => {
    const page = { area, controls: [panel, copy, actions, composer], content: [reply] }
    const placed = placeToasts({ width: 1024, height: 700 }, null, page, 92)
    const toast = toastBox(1024, 700, placed, 92)
    expect([panel, copy, actions, composer].filter((c) => hits(c, toast))).toEqual([])
    expect(placed.covered).toBe(0)
    expect(toast.left).toBeGreaterThanOrEqual(area.left)
    expect(toast.right).toBeLessThanOrEqual(1024)
  })

  it('stays where it is while that covers no control, and moves when one comes under it', () => {
    const page = { area, controls: [panel, composer], content: [reply] }
    const first = placeToasts({ width: 1024, height: 700 }, null, page, 92)
    const kept = placeToasts({ width: 1024, height: 700 }, null, { ...page, current: first }, 92)
    expect(kept).toBe(first)
    // The chat scrolled: a Copy button is under the toast now.
    const under = toastBox(1024, 700, first, 92)
    const scrolled = box(under.right - 60, under.top + 10, 50, 26)
    const moved = placeToasts(
      { width: 1024, height: 700 },
      null,
      { ...page, controls: [...page.controls, scrolled], current: first },
      92
    )
    expect(hits(toastBox(1024, 700, moved, 92), scrolled)).toBe(false)
  })

  it('a toast that appears never lands under the pointer', () => {
    const page = { area, controls: [panel, composer], content: [reply] }
    const usual = toastBox(1024, 700, placeToasts({ width: 1024, height: 700 }, null, page, 92), 92)
    const pointer = box(usual.left + 100 - 24, usual.top + 40 - 24, 49, 49)
    const placed = placeToasts({ width: 1024, height: 700 }, null, { ...page, pointer, arrived: true }, 92)
    expect(hits(toastBox(1024, 700, placed, 92), pointer)).toBe(false)
  })

  it('where every place covers a control, it covers the fewest and says how many', () => {
    const rows = Array.from({ length: 12 }, (_, i) => box(300, 60 + i * 52, 700, 40)) // a settings page
    const placed = placeToasts({ width: 1024, height: 700 }, null, { area, controls: rows }, 92)
    expect(placed.covered).toBeGreaterThan(0)
    expect(rows.filter((r) => hits(r, toastBox(1024, 700, placed, 92)))).toHaveLength(placed.covered!)
  })

  it('never covers the header of Full history (980×760) at 1440×900 or 1024×700', () => {
    for (const [vw, vh] of [
      [1440, 900],
      [1024, 700]
    ] as const) {
      const w = Math.min(980, vw - 32)
      const h = Math.min(760, vh - 48)
      const dialog = box((vw - w) / 2, (vh - h) / 2, w, h)
      const header = box(dialog.left, dialog.top, w, 136) // title, Close and the search box
      const controls = [
        box(dialog.right - 50, dialog.top + 18, 30, 30),
        box(dialog.left + 20, dialog.top + 102, w - 40, 34)
      ]
      const placed = placeToasts({ width: vw, height: vh }, { ...dialog, controls }, null)
      expect(hits(toastBox(vw, vh, placed), header)).toBe(false)
    }
  })

  it('goes beside a small dialog when there is room, else above or below it', () => {
    const wide = placeToasts({ width: 1440, height: 900 }, box(440, 200, 560, 500), null)
    expect(wide.position).toBe('top-right')
    expect(hits(toastBox(1440, 900, wide), box(440, 200, 560, 500))).toBe(false)
    const narrow = placeToasts({ width: 1024, height: 700 }, box(232, 150, 560, 400), null)
    expect(narrow.position).toBe('top-center')
    expect(hits(toastBox(1024, 700, narrow), box(232, 150, 560, 400))).toBe(false)
  })

  it('judges the room above or below a dialog by the real toast height', () => {
    const summarize = box(232, 110, 560, 480) // 110 px above and below at 1024×700
    const small = placeToasts({ width: 1024, height: 700 }, summarize, null, 80)
    expect(small.position).toBe('top-center')
    const tall = placeToasts({ width: 1024, height: 700 }, summarize, null, 170)
    expect(hits(toastBox(1024, 700, tall, 170), box(232, 530, 560, 60))).toBe(false) // its buttons
  })

  it('may cover a dialog’s title and description, never the controls below them', () => {
    const summarize = { ...box(232, 60, 560, 600), controls: [box(252, 320, 520, 80), box(600, 610, 170, 36)] }
    const placed = placeToasts({ width: 1024, height: 700 }, summarize, null, 170)
    expect(placed.position).toBe('top-center')
    expect(toastBox(1024, 700, placed, 170).bottom).toBeLessThanOrEqual(320)
  })

  it('over a full-window dialog, finds a place that covers none of its controls', () => {
    const history = box(22, 24, 980, 652) // Full history at 1024×700
    const controls = [box(950, 40, 30, 30), box(42, 126, 940, 34), box(920, 512, 50, 24), box(920, 300, 50, 24)] // Close, search, two Copy buttons
    const placed = placeToasts({ width: 1024, height: 700 }, { ...history, controls }, null, 170)
    const toast = toastBox(1024, 700, placed, 170)
    expect(controls.filter((c) => hits(c, toast))).toEqual([])
  })
})
