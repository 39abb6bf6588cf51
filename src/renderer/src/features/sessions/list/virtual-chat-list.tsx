import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, useState } from 'react'
import type { SessionSummary } from '../../../../../shared/domain/session'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useUiStore } from '../../../stores/ui-store'
import { SessionItem } from './session-item'

/** A chat's row: title and preview lines (measured once shown; this only places rows not yet seen). */
const ESTIMATED_ROW = 52
/** Rows kept rendered beyond the view, so a quick scroll does not show blank space. */
const OVERSCAN = 12

/**
 * The chats outside projects, as many as the pages read (thousands after a long scroll): only the
 * rows in and near the view are in the page. The sidebar's scroll area scrolls them, with the
 * project sections above, so the list starts at its offset in that area.
 */
export function VirtualChatList({ chats, complete }: { chats: SessionSummary[]; complete: boolean }) {
  const listRef = useRef<HTMLUListElement>(null)
  const [offset, setOffset] = useState(0)
  const selectedId = useUiStore((s) => s.selectedSessionId)

  // The project sections above grow and shrink (a section opens, a chat moves in): follow them.
  useLayoutEffect(() => {
    const list = listRef.current
    const area = list?.closest('.sidebar-scroll')
    if (!list || !area) return
    const measure = () =>
      setOffset(list.getBoundingClientRect().top - area.getBoundingClientRect().top + area.scrollTop)
    measure()
    // Back from a search: the list starts at its top, not where the results were scrolled to.
    area.scrollTo({ top: 0 })
    const observer = new ResizeObserver(measure)
    for (const child of area.children) if (child !== list) observer.observe(child)
    return () => observer.disconnect()
  }, [])

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: chats.length,
    getScrollElement: () => listRef.current?.closest<HTMLElement>('.sidebar-scroll') ?? null,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => chats[index]!.id,
    overscan: OVERSCAN,
    gap: 1,
    scrollMargin: offset
  })

  return (
    <ul
      ref={listRef}
      className="session-list session-list-virtual"
      aria-label="All chats"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const session = chats[row.index]!
        return (
          <SessionItem
            key={row.key}
            session={session}
            active={session.id === selectedId}
            row={{
              index: row.index,
              // Unknown while more pages are to come (-1 says so to a screen reader).
              setSize: complete ? chats.length : -1,
              measure: virtualizer.measureElement,
              top: row.start - offset
            }}
            onOpen={(id) => {
              // Asked for before the chat pane renders, not after (the first pane takes ~20 ms).
              useChatStore.getState().loadUnlessLoaded(id)
              useUiStore.getState().openSession(id)
            }}
          />
        )
      })}
    </ul>
  )
}
