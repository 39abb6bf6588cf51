import { useSessionsStore } from '../../../stores/sessions-store'
import { CloseIcon, SearchIcon } from '../../../components/icons'
import { focusFirstResult } from './search-results'

/** Searches chats by title and message text; the server does the matching (debounced in the store). */
export function SearchBox() {
  const query = useSessionsStore((s) => s.query)
  const setQuery = useSessionsStore((s) => s.setQuery)
  return (
    <div className="search-box">
      <SearchIcon className="search-icon" />
      <input
        type="search"
        aria-label="Search chats"
        aria-keyshortcuts="Control+K"
        title="Search chats by title and message text (Ctrl+K)"
        placeholder="Search chats"
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          // ↓ enters the results (they handle ↑/↓ from there).
          if (event.key === 'ArrowDown' && focusFirstResult()) event.preventDefault()
          if (event.key === 'Escape' && query !== '') {
            event.preventDefault()
            setQuery('')
          }
        }}
      />
      {query !== '' && (
        <button
          type="button"
          className="icon-button search-clear"
          aria-label="Clear search"
          title="Clear search"
          onClick={(event) => {
            setQuery('')
            event.currentTarget.parentElement?.querySelector('input')?.focus()
          }}
        >
          <CloseIcon width={14} height={14} />
        </button>
      )}
    </div>
  )
}
