import { useEffect, useRef, type KeyboardEvent } from 'react'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useUiStore } from '../../../stores/ui-store'
import { SearchResultGroup } from './search-result-group'
import { moreChatsNote, searchSummary } from './search-summary'
import './search-results.css'

/** Every place a search result can be opened from, in reading order (chat titles and passages). */
const ENTRY = 'a.search-entry'

/** Moves focus from the search box to the first result; false when there is none. */
export function focusFirstResult(): boolean {
  const first = document.querySelector<HTMLElement>(`.search-results ${ENTRY}`)
  first?.focus()
  return first !== null
}

/**
 * The sidebar while searching: the chats found, best first, each with its best passages (the
 * matched words marked). A passage opens its chat at that message; a chat's title opens it at its
 * best passage. ↑/↓ walk the titles and passages (↓ from the search box enters, ↑ from the first
 * goes back), Home/End jump, Enter opens.
 */
export function SearchResults() {
  const found = useSessionsStore((s) => s.found)
  const query = useSessionsStore((s) => s.listedQuery)
  const openAt = useSessionsStore((s) => s.openAt)
  const failure = useSessionsStore((s) => (s.status === 'error' ? s.error : null))
  const selectedId = useUiStore((s) => s.selectedSessionId)
  const ref = useRef<HTMLDivElement>(null)

  // New results start at the top: the scroll left from paging through the whole list would hide the best hits.
  useEffect(() => {
    ref.current?.closest('.sidebar-scroll')?.scrollTo({ top: 0 })
  }, [query])

  if (failure) {
    return (
      <p className="session-list-note" role="alert">
        Could not search your chats. <span className="muted">{failure}</span>
      </p>
    )
  }
  if (!found || found.results.length === 0) {
    return (
      <p className="session-list-note muted" role="status">
        No chats match “{query}”.
      </p>
    )
  }

  function open(sessionId: string, messageId: string | null) {
    if (messageId) openAt(sessionId, messageId)
    else {
      // Asked for before the chat pane renders, not after (the first pane takes ~20 ms).
      useChatStore.getState().loadUnlessLoaded(sessionId)
      useUiStore.getState().openSession(sessionId)
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    const entries = [...(ref.current?.querySelectorAll<HTMLElement>(ENTRY) ?? [])]
    const at = entries.indexOf(document.activeElement as HTMLElement)
    const moves: Record<string, number> = {
      ArrowDown: Math.min(at + 1, entries.length - 1),
      ArrowUp: at - 1,
      Home: 0,
      End: entries.length - 1
    }
    const to = moves[event.key] ?? null
    if (to === null || at < 0) return
    event.preventDefault()
    if (to < 0) document.querySelector<HTMLInputElement>('input[aria-label="Search chats"]')?.focus()
    else entries[to]?.focus()
  }

  const shown = found.results.length
  const moreNote = moreChatsNote(found, shown)
  return (
    <div ref={ref} className="search-results" onKeyDown={onKeyDown}>
      <p className="search-summary" role="status">
        {searchSummary(found)}
      </p>
      <ul className="session-list search-groups" aria-label={`Chats matching “${query}”`}>
        {found.results.map((result) => (
          <SearchResultGroup
            key={result.id}
            result={result}
            active={result.id === selectedId}
            onOpen={(messageId) => open(result.id, messageId)}
          />
        ))}
      </ul>
      {moreNote && <p className="search-more muted">{moreNote}</p>}
    </div>
  )
}
