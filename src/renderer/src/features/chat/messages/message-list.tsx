import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { ArrowDownIcon } from '../../../components/icons'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'
import type { Thread } from '../../../stores/chat/thread'
import { useCompressionStore, useSummaryCutoff } from '../../../stores/compression-store'
import { usePageEdges } from '../../../lib/use-page-edges'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useJumpToMessage } from '../../sessions/search/use-jump-to-message'
import { ChatEmpty } from '../chat-empty'
import { ContextDivider } from './context-divider'
import { MessageItem } from './message-item'
import { buildRows } from './message-rows'
import './message-list.css'

function retryable(message: ChatMessage): boolean {
  return message.role === 'assistant' && (message.status === 'error' || message.status === 'aborted')
}

/** How close to the bottom (px) still counts as "following" the conversation. */
const FOLLOW_SLACK = 120
/** A first guess of a row's height; rows are measured once shown. */
const ESTIMATED_ROW = 96
/** Rows rendered beyond each edge of the view, so a scroll shows them at once. */
const OVERSCAN = 6
const GAP = 20
const PADDING_START = 28
const PADDING_END = 16

/** Where the end of `count` rows of the first guess's height starts to show in a window-high view. */
function estimatedEnd(count: number): number {
  return Math.max(0, PADDING_START + count * ESTIMATED_ROW + (count - 1) * GAP + PADDING_END - window.innerHeight)
}

/**
 * The conversation, virtualized so long chats stay smooth. Follows new messages while the reader is
 * at the bottom, and always after they send. Alt+↑ / Alt+↓ move between messages.
 */
export function MessageList({ sessionId }: { sessionId: string }) {
  const thread = useChatStore((s) => s.threads[sessionId])
  const load = useChatStore((s) => s.load)
  const cutoffSeq = useSummaryCutoff(sessionId)
  const compressing = useCompressionStore((s) => !!s.running[sessionId])

  if (!thread || (thread.status === 'loading' && thread.messages.length === 0)) {
    return <div className="message-scroll" aria-busy="true" />
  }
  if (thread.status === 'error' && thread.messages.length === 0) {
    return (
      <div className="message-scroll">
        <div className="chat-empty" role="alert">
          <h2>Could not load this chat</h2>
          <p className="muted">{thread.error}</p>
          <button type="button" className="button" onClick={() => void load(sessionId)}>
            Try again
          </button>
        </div>
      </div>
    )
  }
  if (thread.messages.length === 0) {
    return (
      <div className="message-scroll">
        <ChatEmpty />
      </div>
    )
  }
  return <VirtualMessages sessionId={sessionId} thread={thread} cutoffSeq={cutoffSeq} compressing={compressing} />
}

function VirtualMessages({
  sessionId,
  thread,
  cutoffSeq,
  compressing
}: {
  sessionId: string
  thread: Thread
  cutoffSeq: number
  compressing: boolean
}) {
  const { messages, hasOlder, hasNewer } = thread
  const scrollRef = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  const lastId = useRef<string | null>(null)
  const lastUserId = useRef<string | null>(null)
  /** Scrolled up, away from the newest message: "Jump to latest" shows. */
  const [away, setAway] = useState(false)
  const rows = useMemo(() => buildRows(messages, cutoffSeq, hasNewer), [messages, cutoffSeq, hasNewer])
  /** The row moved to with Alt+↑/↓: it shows a focus ring (a click on a message does not). */
  const [keyboardRow, setKeyboardRow] = useState<string | null>(null)

  // The first paint has only the rows in view (each a Markdown render): those around them follow
  // right after it.
  const [overscan, setOverscan] = useState(0)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setOverscan(OVERSCAN))))
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [])

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => rows[index]!.key,
    overscan,
    gap: GAP,
    paddingStart: PADDING_START,
    paddingEnd: PADDING_END,
    // Opened at the newest message, the first render already lays out the rows at the end, not the
    // page's first rows (each a Markdown render) that the scroll to the bottom would replace at once.
    initialOffset: hasNewer ? 0 : () => estimatedEnd(rows.length),
    initialRect: { width: 0, height: window.innerHeight },
    // A page of older messages put above keeps the row at the top of the view where it was.
    anchorTo: 'end'
  })

  const jumpPending = useSessionsStore((s) => s.pendingJump?.sessionId === sessionId)
  const checkEdges = usePageEdges(
    scrollRef,
    {
      hasOlder,
      hasNewer,
      loadingOlder: thread.loadingOlder,
      loadingNewer: thread.loadingNewer,
      loadOlder: () => void useChatStore.getState().loadOlder(sessionId),
      loadNewer: () => void useChatStore.getState().loadNewer(sessionId),
      // After a failed page, only "Try again" asks again (no loop of failing requests).
      paused: jumpPending || thread.status === 'loading' || thread.pageError !== null
    },
    rows.length
  )

  useJumpToMessage(
    sessionId,
    rows.map((r) => (r.kind === 'message' ? r.message.id : null)),
    virtualizer,
    scrollRef,
    () => {
      following.current = false
    }
  )

  const last = messages[messages.length - 1]!
  const lastLength = messageText(last.parts).length
  const totalSize = virtualizer.getTotalSize()

  const newestUser = messages.findLast((m) => m.role === 'user')?.id ?? null

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const first = lastId.current === null
    // The user just sent (their message arrives with its reply, so the reply may be the last row).
    const sent = !first && newestUser !== null && newestUser !== lastUserId.current
    lastId.current = last.id
    lastUserId.current = newestUser
    // New messages: follow if the reader was at the bottom, and always after they send. A growing
    // (streaming) reply, or rows measured taller than guessed: follow only while at the bottom.
    // Opened at an older message (newer pages not loaded), the jump places the view instead.
    if (hasNewer) following.current = false
    else if (first || following.current || sent) {
      el.scrollTop = el.scrollHeight
      following.current = true
      setAway(false)
    }
  }, [last, lastLength, totalSize, newestUser, hasNewer])

  function jumpToLatest() {
    const el = scrollRef.current
    if (!el) return
    following.current = true
    setAway(false)
    // Reading an older stretch: the newest page takes its place, and the list follows it down.
    if (hasNewer) {
      void useChatStore.getState().load(sessionId)
      return
    }
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' })
    requestAnimationFrame(() => (el.scrollTop = el.scrollHeight))
  }

  function focusRow(index: number) {
    const target = Math.max(0, Math.min(rows.length - 1, index))
    setKeyboardRow(rows[target]!.key)
    virtualizer.scrollToIndex(target, { align: 'auto' })
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`)?.focus({ preventScroll: true })
    })
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    const current = (event.target as HTMLElement).closest<HTMLElement>('[data-index]')
    const index = current ? Number(current.dataset.index) : null
    event.preventDefault()
    if (index === null) {
      // From the list itself: start at the first message shown (↓) or the last one (↑).
      const shown = virtualizer.getVirtualItems()
      focusRow(event.key === 'ArrowDown' ? (shown[0]?.index ?? 0) : (shown[shown.length - 1]?.index ?? rows.length - 1))
    } else {
      focusRow(index + (event.key === 'ArrowDown' ? 1 : -1))
    }
  }

  return (
    <div className="message-scroll-frame">
      <div
        ref={scrollRef}
        className="message-scroll"
        role="log"
        aria-label="Messages"
        aria-describedby="message-list-keys"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(event) => {
          const el = event.currentTarget
          following.current = !hasNewer && el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK
          if (away === following.current) setAway(!following.current)
          checkEdges()
        }}
      >
        <span id="message-list-keys" className="sr-only">
          Alt+Up and Alt+Down move between messages.
        </span>
        <div className="message-column" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            // The chat's newest message, not only the newest loaded (retry and waiting apply to it).
            const isLast = item.index === rows.length - 1 && !hasNewer
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                data-last={isLast || undefined}
                data-keyboard-focus={keyboardRow === row.key || undefined}
                className="message-row"
                tabIndex={-1}
                onBlur={(event) => {
                  if (event.target === event.currentTarget && keyboardRow === row.key) setKeyboardRow(null)
                }}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.kind === 'divider' ? (
                  <ContextDivider sessionId={sessionId} />
                ) : (
                  <MessageItem
                    message={row.message}
                    canRetry={isLast && retryable(row.message)}
                    inContext={row.inContext}
                    waitingForSummary={isLast && compressing && row.message.status === 'streaming'}
                  />
                )}
              </div>
            )
          })}
        </div>
      </div>
      <PageStatus
        thread={thread}
        onRetry={() => {
          void useChatStore.getState().loadOlder(sessionId)
          void useChatStore.getState().loadNewer(sessionId)
        }}
      />
      {(away || hasNewer) && (
        <button type="button" className="jump-to-latest" onClick={jumpToLatest}>
          <ArrowDownIcon width={14} height={14} />
          Jump to latest
        </button>
      )}
    </div>
  )
}

/** Says when earlier or later messages are on their way, or could not be loaded. */
function PageStatus({ thread, onRetry }: { thread: Thread; onRetry(): void }) {
  if (thread.pageError) {
    return (
      <div className="message-page-status" role="alert" data-end="top">
        Could not load more messages: {thread.pageError}{' '}
        <button type="button" className="button button-ghost button-small" onClick={onRetry}>
          Try again
        </button>
      </div>
    )
  }
  if (!thread.loadingOlder && !thread.loadingNewer) return null
  return (
    <div className="message-page-status" role="status" data-end={thread.loadingOlder ? 'top' : 'bottom'}>
      {thread.loadingOlder ? 'Loading earlier messages…' : 'Loading later messages…'}
    </div>
  )
}
