import type { Virtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type RefObject } from 'react'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useSessionsStore } from '../../../stores/sessions-store'
import './session-search.css'

/** How long a message opened from a search stays highlighted. */
const FLASH_MS = 2400

/**
 * Shows the message a sidebar search opened the chat at: scrolls it to the middle, highlights it
 * for a moment and moves focus to it (as Full history does). When it is not among the loaded
 * messages, the page around it is loaded in their place first.
 */
export function useJumpToMessage(
  sessionId: string,
  messageIds: readonly (string | null)[],
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  scrollRef: RefObject<HTMLDivElement | null>,
  stopFollowing: () => void
): void {
  const target = useSessionsStore((s) => (s.pendingJump?.sessionId === sessionId ? s.pendingJump.messageId : null))
  const index = target ? messageIds.indexOf(target) : -1

  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([])

  useEffect(() => {
    if (!target || index >= 0) return
    void useChatStore
      .getState()
      .loadAround(sessionId, target)
      .then((found) => {
        // Gone (deleted, or another version now): nothing to show; the chat stays where it is.
        if (!found && useSessionsStore.getState().pendingJump?.messageId === target)
          useSessionsStore.getState().jumpShown()
      })
  }, [sessionId, target, index])
  useEffect(() => () => timers.current.forEach(clearTimeout), [])

  // Clearing the pending jump re-renders with no target: the timers must outlive that, so they
  // are cancelled only when the list goes away.
  useEffect(() => {
    if (index < 0) return
    useSessionsStore.getState().jumpShown()
    // The list must not snap back to the newest message while rows are measured.
    stopFollowing()
    virtualizer.scrollToIndex(index, { align: 'center' })
    let row: HTMLElement | null = null
    timers.current.push(
      setTimeout(() => {
        stopFollowing()
        virtualizer.scrollToIndex(index, { align: 'center' })
        row = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? null
        row?.setAttribute('data-jump-flash', '')
        row?.focus({ preventScroll: true })
      }, 80),
      setTimeout(() => row?.removeAttribute('data-jump-flash'), FLASH_MS)
    )
    // Only a new jump moves the list, not new rows arriving.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index, target])
}
