import { useId, type MouseEvent } from 'react'
import type { SearchPassage, SessionSearchResult } from '../../../../../shared/contract/sessions'
import { formatFull, formatRelative } from '../../../lib/relative-time'
import { useNow } from '../../../lib/use-now'
import { HighlightedText } from './highlighted-text'
import { moreNote } from './search-summary'

/** A plain click: a modified one (new tab, new window) keeps the link's own meaning. */
function plainClick(event: MouseEvent): boolean {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return false
  event.preventDefault()
  return true
}

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' }

/** "3 matches", "12+ matches", or what matched when no message did. */
function countNote({ count, countIsLowerBound, titleMatch }: SessionSearchResult): string {
  if (count === 0) return titleMatch ? 'Title matches' : ''
  return `${count}${countIsLowerBound ? '+' : ''} ${count === 1 && !countIsLowerBound ? 'match' : 'matches'}`
}

interface SearchResultGroupProps {
  result: SessionSearchResult
  active: boolean
  /** Opens the chat at a message (a passage), or as it is (null). */
  onOpen(messageId: string | null): void
}

/** One chat found by a search: its title, then its best passages, each opening the chat at its message. */
export function SearchResultGroup({ result, active, onOpen }: SearchResultGroupProps) {
  const titleId = useId()
  const noteId = useId()
  const best = result.passages[0]?.messageId ?? null
  const more = moreNote(result)
  return (
    <li className="search-group" data-active={active || undefined}>
      <a
        href={`#chat/${encodeURIComponent(result.id)}`}
        className="search-entry search-group-title"
        aria-current={active ? 'page' : undefined}
        aria-labelledby={titleId}
        aria-describedby={noteId}
        draggable={false}
        onClick={(event) => plainClick(event) && onOpen(best)}
      >
        <span id={titleId} className="search-group-name">
          <HighlightedText text={result.title} ranges={result.titleRanges} />
        </span>
        <span id={noteId} className="search-group-count">
          {countNote(result)}
        </span>
      </a>
      {result.passages.length > 0 && (
        <div role="group" aria-label={`Matches in ${result.title}`} className="search-passages">
          {result.passages.map((passage) => (
            <Passage key={passage.messageId} sessionId={result.id} passage={passage} onOpen={onOpen} />
          ))}
          {more && <p className="search-passages-more">{more}</p>}
        </div>
      )}
    </li>
  )
}

function Passage({
  sessionId,
  passage,
  onOpen
}: {
  sessionId: string
  passage: SearchPassage
  onOpen(messageId: string): void
}) {
  const now = useNow()
  return (
    <a
      href={`#chat/${encodeURIComponent(sessionId)}`}
      className="search-entry search-passage"
      draggable={false}
      onClick={(event) => plainClick(event) && onOpen(passage.messageId)}
    >
      <span className="search-passage-text">
        <HighlightedText text={passage.text} ranges={passage.ranges} />
      </span>
      <span className="search-passage-meta">
        {ROLE_LABEL[passage.role] ?? passage.role} ·{' '}
        <time dateTime={new Date(passage.createdAt).toISOString()} title={formatFull(passage.createdAt)}>
          {formatRelative(passage.createdAt, now)}
        </time>
      </span>
    </a>
  )
}
