import { PinnedMark } from '../../components/pin-action'
import * as Dialog from '@radix-ui/react-dialog'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { HistoryHit } from '../../../../shared/contract'
import { CloseIcon, SearchIcon } from '../../components/icons'
import { MarkdownText } from '../../components/markdown-text'
import { formatFull } from '../../lib/relative-time'
import { messageText } from '../../lib/message-text'
import { AttachAgainButton } from '../../components/attachment-manifest'
import { MessageAttachments } from '../../components/message-attachments'
import { usePageEdges } from '../../lib/use-page-edges'
import { useReturnFocus } from '../../lib/use-return-focus'
import { useHistoryStore, type HistoryMessage } from '../../stores/history-store'
import { useRecallStore } from '../../stores/chat/recall-store'
import { useUiStore } from '../../stores/ui-store'
import { snippetParts } from '../../lib/highlight'
import '../../components/recall.css'
import './full-history-dialog.css'

const ROLE_LABEL: Record<string, string> = { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' }
/** How long a message jumped to stays highlighted. */
const FLASH_MS = 2200

/**
 * "Full history" (FR-6.3): every message of the chat, summarized ones included and marked as not
 * in the active context, with full-text search over all of them and jump-to-message.
 */
export function FullHistoryDialog({ sessionId }: { sessionId: string }) {
  const open = useUiStore((s) => s.chatDialog === 'history')
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const focusHandlers = useReturnFocus()

  useEffect(() => {
    if (!open) return
    useHistoryStore.getState().open(sessionId)
    void useRecallStore.getState().load(sessionId)
    return () => {
      useHistoryStore.getState().close()
      useRecallStore.getState().takeJump()
    }
  }, [open, sessionId])

  return (
    <Dialog.Root open={open} onOpenChange={(next) => setChatDialog(next ? 'history' : null)}>
      {open && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content
            className="dialog history-dialog"
            {...focusHandlers}
            onEscapeKeyDown={(event) => {
              // Escape clears a search first, and only then closes the dialog.
              const history = useHistoryStore.getState()
              if (history.query !== '') {
                event.preventDefault()
                history.setQuery('')
              }
            }}
          >
            <HistoryContent />
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

type Row = { kind: 'message'; message: HistoryMessage } | { kind: 'divider' }

function HistoryContent() {
  const messages = useHistoryStore((s) => s.messages)
  const status = useHistoryStore((s) => s.status)
  const error = useHistoryStore((s) => s.error)
  const cutoff = useHistoryStore((s) => s.summaryCutoffSeq)
  const query = useHistoryStore((s) => s.query)
  const setQuery = useHistoryStore((s) => s.setQuery)
  const [flash, setFlash] = useState<{ id: string; at: number } | null>(null)
  const searchHintId = useId()

  const rows = useMemo<Row[]>(() => {
    const out: Row[] = []
    let placed = cutoff <= 0
    for (const message of messages) {
      if (!placed && message.seq > cutoff) {
        if (out.length > 0) out.push({ kind: 'divider' })
        placed = true
      }
      out.push({ kind: 'message', message })
    }
    return out
  }, [messages, cutoff])

  // "Recalled 3 earlier messages" under a reply opens this dialog at the one chosen.
  const jumpTo = useRecallStore((s) => s.jumpTo)
  const [openedAt] = useState(() => Date.now())
  const loaded = messages.length > 0
  const jump = useMemo(() => (loaded && jumpTo ? { id: jumpTo, at: openedAt } : null), [loaded, jumpTo, openedAt])
  const shownFlash = flash ?? jump

  const summarized = useHistoryStore((s) => s.summarizedCount)
  const searching = query.trim() !== ''

  return (
    <>
      <div className="history-head">
        <div>
          <Dialog.Title className="dialog-title">Full history</Dialog.Title>
          <Dialog.Description className="dialog-description">
            Every message of this chat, word for word.
            {summarized > 0 &&
              ` ${summarized} ${summarized === 1 ? 'is' : 'are'} represented by the summary and marked “Not in active context”: the model no longer receives them.`}
          </Dialog.Description>
        </div>
        <Dialog.Close asChild>
          <button type="button" className="icon-button" aria-label="Close">
            <CloseIcon />
          </button>
        </Dialog.Close>
      </div>
      <div className="history-search">
        <SearchIcon className="search-icon" />
        <input
          type="search"
          className="input history-search-input"
          aria-label="Search history"
          aria-describedby={searchHintId}
          placeholder="Search every message of this chat"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <span id={searchHintId} className="sr-only">
          Results appear as you type; choose one to jump to the message.
        </span>
      </div>
      <div className="history-body" data-searching={searching || undefined}>
        {searching && <SearchResults onJump={(id) => setFlash({ id, at: Date.now() })} />}
        {status === 'error' && messages.length === 0 ? (
          <p className="field-error history-empty" role="alert">
            Could not load the history: {error}
          </p>
        ) : status === 'loading' && messages.length === 0 ? (
          <p className="muted history-empty" aria-busy="true">
            Loading…
          </p>
        ) : messages.length === 0 ? (
          <p className="muted history-empty">No messages yet.</p>
        ) : (
          <HistoryList rows={rows} flash={shownFlash} />
        )}
      </div>
    </>
  )
}

function SearchResults({ onJump }: { onJump(messageId: string): void }) {
  const hits = useHistoryStore((s) => s.hits)
  const total = useHistoryStore((s) => s.total)
  const searching = useHistoryStore((s) => s.searching)
  const searchedQuery = useHistoryStore((s) => s.searchedQuery)
  const searchError = useHistoryStore((s) => s.searchError)
  const query = useHistoryStore((s) => s.query)
  const pending = searching || searchedQuery !== query.trim()

  let countText: string
  if (searchError) countText = searchError
  else if (pending && searchedQuery === '') countText = 'Searching…'
  else if (total === 0) countText = `No matches for “${searchedQuery}”`
  else if (hits.length < total) countText = `${hits.length} of ${total} matches shown`
  else countText = `${total} ${total === 1 ? 'match' : 'matches'}`

  return (
    <section className="history-results" aria-label="Search results" aria-busy={pending || undefined}>
      <p className="history-results-count" role="status">
        {countText}
      </p>
      {hits.length > 0 && (
        <ul className="history-hits">
          {hits.map((hit) => (
            <li key={hit.messageId}>
              <HitButton hit={hit} onJump={onJump} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function HitButton({ hit, onJump }: { hit: HistoryHit; onJump(messageId: string): void }) {
  return (
    <button
      type="button"
      className="history-hit"
      data-in-context={hit.inContext ? undefined : 'false'}
      onClick={() => onJump(hit.messageId)}
    >
      <span className="history-hit-head">
        <span className="history-role">{ROLE_LABEL[hit.role] ?? hit.role}</span>
        <time dateTime={new Date(hit.createdAt).toISOString()}>{formatFull(hit.createdAt)}</time>
        {!hit.inContext && <span className="not-in-context">Not in active context</span>}
      </span>
      <span className="history-hit-snippet">
        {snippetParts(hit.snippet).map((part, i) =>
          part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>
        )}
      </span>
    </button>
  )
}

function HistoryList({ rows, flash }: { rows: Row[]; flash: { id: string; at: number } | null }) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [flashing, setFlashing] = useState<string | null>(null)
  const hasOlder = useHistoryStore((s) => s.hasOlder)
  const hasNewer = useHistoryStore((s) => s.hasNewer)
  const loadingOlder = useHistoryStore((s) => s.loadingOlder)
  const loadingNewer = useHistoryStore((s) => s.loadingNewer)
  const status = useHistoryStore((s) => s.status)

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 88,
    getItemKey: (index) => {
      const row = rows[index]!
      return row.kind === 'divider' ? 'divider' : row.message.id
    },
    overscan: 6,
    paddingStart: 12,
    paddingEnd: 12,
    // A page of older messages put above keeps the row at the top of the view where it was.
    anchorTo: 'end'
  })

  const flashIndex = flash ? rows.findIndex((r) => r.kind === 'message' && r.message.id === flash.id) : -1
  const checkEdges = usePageEdges(
    scrollRef,
    {
      hasOlder,
      hasNewer,
      loadingOlder,
      loadingNewer,
      loadOlder: () => void useHistoryStore.getState().loadOlder(),
      loadNewer: () => void useHistoryStore.getState().loadNewer(),
      paused: status !== 'ready' || (flash !== null && flashIndex < 0)
    },
    rows.length
  )

  // A hit outside the loaded stretch: the page around it takes its place, then the jump below runs.
  useEffect(() => {
    if (flash && flashIndex < 0) void useHistoryStore.getState().loadAround(flash.id)
  }, [flash, flashIndex])

  // Jump to a search hit: bring it into view, highlight it for a moment, and move focus to it.
  const found = flashIndex >= 0
  useEffect(() => {
    if (!flash || !found) return
    virtualizer.scrollToIndex(flashIndex, { align: 'center' })
    const show = setTimeout(() => {
      virtualizer.scrollToIndex(flashIndex, { align: 'center' })
      setFlashing(flash.id)
      scrollRef.current
        ?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(flash.id)}"]`)
        ?.focus({ preventScroll: true })
    }, 60)
    const hide = setTimeout(() => setFlashing(null), FLASH_MS)
    return () => {
      clearTimeout(show)
      clearTimeout(hide)
    }
    // Only a new jump (or its page arriving) moves the list, not new rows arriving.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flash, found])

  // Opened at the newest page: start at its end, like the chat.
  const opened = useRef(false)
  useLayoutEffect(() => {
    if (opened.current || rows.length === 0 || flash) return
    opened.current = true
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows.length])

  return (
    <div
      ref={scrollRef}
      className="history-scroll"
      role="region"
      aria-label="All messages"
      tabIndex={0}
      onScroll={checkEdges}
    >
      <div className="history-column" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="history-row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row.kind === 'divider' ? (
                <div className="context-divider" role="separator" aria-label="Active context starts here">
                  <span className="context-divider-label" aria-hidden="true">
                    Active context starts here
                  </span>
                </div>
              ) : (
                <HistoryItem message={row.message} flashing={flashing === row.message.id} />
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}

const IMPORTANCE_LABEL: Record<string, string> = {
  'paradigm-shift': 'Key turn',
  important: 'Important',
  routine: 'Routine'
}

function HistoryItem({ message, flashing }: { message: HistoryMessage; flashing: boolean }) {
  const text = messageText(message.parts)
  const recalledBy = useRecallStore((s) => s.bySession[message.sessionId]?.recalledBy[message.id]?.length ?? 0)
  return (
    <article
      className="history-item"
      data-message-id={message.id}
      data-role={message.role}
      data-in-context={message.inContext ? undefined : 'false'}
      data-flash={flashing || undefined}
      tabIndex={-1}
      aria-label={`${ROLE_LABEL[message.role] ?? message.role}, message ${message.seq}${message.pinnedAt !== undefined ? ', pinned' : message.inContext ? '' : ', not in active context'}`}
    >
      <header className="history-item-head">
        <span className="history-role">{ROLE_LABEL[message.role] ?? message.role}</span>
        <time dateTime={new Date(message.createdAt).toISOString()}>{formatFull(message.createdAt)}</time>
        {message.pinnedAt !== undefined && <PinnedMark />}
        {!message.inContext && message.pinnedAt === undefined && (
          <span className="not-in-context">Not in active context</span>
        )}
        {recalledBy > 0 && (
          <span className="recalled-mark" title="Sent again, verbatim, with the request of a later reply">
            Recalled for {recalledBy === 1 ? 'a reply' : `${recalledBy} replies`}
          </span>
        )}
        {message.importance && (
          <span
            className="importance-badge"
            data-class={message.importance.class}
            title="Importance score of this turn (0–10), computed locally by the importance strategy"
          >
            {IMPORTANCE_LABEL[message.importance.class]} · {message.importance.score.toFixed(1)}
          </span>
        )}
        {message.status === 'error' && <span className="history-status">Failed</span>}
        {message.status === 'aborted' && <span className="history-status">Stopped</span>}
      </header>
      {text === '' && !message.parts.some((p) => p.type === 'attachment') ? (
        <div className="history-item-text muted">(no text)</div>
      ) : text === '' ? null : message.role === 'assistant' ? (
        <MarkdownText className="history-item-text history-item-markdown" text={text} />
      ) : (
        <div className="history-item-text">{text}</div>
      )}
      <MessageAttachments
        parts={message.parts}
        attachAgain={
          message.inContext ? undefined : (part) => <AttachAgainButton sessionId={message.sessionId} part={part} />
        }
      />
    </article>
  )
}
