import { useEffect, useRef } from 'react'
import { useSessionsStore } from '../../../stores/sessions-store'
import { SearchResults } from '../search/search-results'
import { ProjectSections, unfiledChats } from '../projects/project-section'
import { VirtualChatList } from './virtual-chat-list'

export function SessionList() {
  const sessions = useSessionsStore((s) => s.sessions)
  const status = useSessionsStore((s) => s.status)
  const error = useSessionsStore((s) => s.error)
  const listedQuery = useSessionsStore((s) => s.listedQuery)
  const load = useSessionsStore((s) => s.load)
  const nextCursor = useSessionsStore((s) => s.nextCursor)

  if (status === 'error' && sessions.length === 0) {
    return (
      <div className="session-list-note" role="alert">
        <p>Could not load your chats.</p>
        <p className="muted">{error}</p>
        <button type="button" className="button button-small" onClick={() => void load()}>
          Try again
        </button>
      </div>
    )
  }
  if (status === 'loading' && sessions.length === 0) {
    return <p className="session-list-note muted">Loading chats…</p>
  }
  // A search shows its own list: chats grouped with their matching passages.
  if (listedQuery) return <SearchResults />
  if (sessions.length === 0) {
    return (
      <p className="session-list-note muted" role="status">
        No chats yet.
      </p>
    )
  }
  return (
    <>
      <ProjectSections />
      <VirtualChatList chats={unfiledChats(sessions, false)} complete={nextCursor === null} />
      <MoreChats />
    </>
  )
}

/** How far below the view the next page is asked for, so scrolling rarely reaches the end. */
const AHEAD_PX = 600

/**
 * The end of a list that has more pages: the next page loads as this comes within AHEAD_PX of the
 * view (or on a click, for a keyboard or when observing is not possible).
 */
function MoreChats() {
  const nextCursor = useSessionsStore((s) => s.nextCursor)
  const loadingMore = useSessionsStore((s) => s.loadingMore)
  const error = useSessionsStore((s) => s.error)
  const loadMore = useSessionsStore((s) => s.loadMore)
  const ref = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const element = ref.current
    if (!element || !nextCursor || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore()
      },
      { root: element.closest('.sidebar-scroll'), rootMargin: `0px 0px ${AHEAD_PX}px 0px` }
    )
    observer.observe(element)
    return () => observer.disconnect()
    // A new cursor re-observes: a page too short to fill the view asks for the next one at once.
  }, [nextCursor, loadMore])

  if (!nextCursor) return null
  return (
    <div ref={ref} className="session-list-more">
      {error && !loadingMore && (
        <p className="muted" role="alert">
          Could not load more chats. {error}
        </p>
      )}
      <button type="button" className="button button-small" disabled={loadingMore} onClick={() => void loadMore()}>
        {loadingMore ? 'Loading more chats…' : 'More chats'}
      </button>
    </div>
  )
}
