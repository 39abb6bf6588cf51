import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react'

/** How close (px) to the loaded top or bottom the reader gets before the next page is asked for. */
const EDGE_PX = 1500

export interface PageEdges {
  hasOlder: boolean
  hasNewer: boolean
  loadingOlder: boolean
  loadingNewer: boolean
  loadOlder(): void
  loadNewer(): void
  /** No page is asked for meanwhile (a jump is being shown, a page in place of the list is loading). */
  paused?: boolean
}

/**
 * Loads the next page of a list read in pages when the reader scrolls near either end of what is
 * loaded. Returns the check to call on scroll; it also runs after each page, since a short page
 * can leave the reader at the edge. Keeping the view steady when a page is put before it is the
 * virtualizer's part (`anchorTo: 'end'` keeps the row at the top of the view where it was).
 */
export function usePageEdges(scrollRef: RefObject<HTMLElement | null>, edges: PageEdges, rowCount: number): () => void {
  const current = useRef(edges)
  useLayoutEffect(() => {
    current.current = edges
  })

  const check = useCallback(() => {
    const el = scrollRef.current
    const e = current.current
    if (!el || e.paused) return
    if (e.hasOlder && !e.loadingOlder && el.scrollTop < EDGE_PX) e.loadOlder()
    if (e.hasNewer && !e.loadingNewer && el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX) e.loadNewer()
  }, [scrollRef])

  const { hasOlder, hasNewer, loadingOlder, loadingNewer, paused } = edges
  useEffect(() => {
    // After layout and the first measurements, so the position checked is where the reader is.
    const frame = requestAnimationFrame(check)
    return () => cancelAnimationFrame(frame)
  }, [check, rowCount, hasOlder, hasNewer, loadingOlder, loadingNewer, paused])

  return check
}
