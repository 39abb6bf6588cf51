import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { ArrowDownIcon } from '../../components/icons'
import { messageText } from '../../lib/message-text'
import { useChatStore } from '../../stores/chat-store'
import { useCompressionStore, useSummaryCutoff } from '../../stores/compression-store'
import { useJumpToMessage } from '../sessions/use-jump-to-message'
import { ChatEmpty } from './chat-empty'
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
  return <VirtualMessages sessionId={sessionId} messages={thread.messages} cutoffSeq={cutoffSeq} compressing={compressing} />
}

function VirtualMessages({
  sessionId,
  messages,
  cutoffSeq,
  compressing
}: {
  sessionId: string
  messages: ChatMessage[]
  cutoffSeq: number
  compressing: boolean
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const following = useRef(true)
  const lastId = useRef<string | null>(null)
  const lastUserId = useRef<string | null>(null)
  /** Scrolled up, away from the newest message: "Jump to latest" shows. */
  const [away, setAway] = useState(false)
  const rows = useMemo(() => buildRows(messages, cutoffSeq), [messages, cutoffSeq])
  /** The row moved to with Alt+↑/↓: it shows a focus ring (a click on a message does not). */
  const [keyboardRow, setKeyboardRow] = useState<string | null>(null)

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => rows[index]!.key,
    overscan: 6,
    gap: 20,
    paddingStart: 28,
    paddingEnd: 16
  })

  useJumpToMessage(sessionId, rows.map((r) => (r.kind === 'message' ? r.message.id : null)), virtualizer, scrollRef, () => {
    following.current = false
  })

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
    if (first || following.current || sent) {
      el.scrollTop = el.scrollHeight
      following.current = true
      setAway(false)
    }
  }, [last, lastLength, totalSize, newestUser])

  function jumpToLatest() {
    const el = scrollRef.current
    if (!el) return
    following.current = true
    setAway(false)
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
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK
          if (away === following.current) setAway(!following.current)
        }}
      >
        <span id="message-list-keys" className="sr-only">
          Alt+Up and Alt+Down move between messages.
        </span>
        <div className="message-column" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!
            const isLast = item.index === rows.length - 1
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
      {away && (
        <button type="button" className="jump-to-latest" onClick={jumpToLatest}>
          <ArrowDownIcon width={14} height={14} />
          Jump to latest
        </button>
      )}
    </div>
  )
}
