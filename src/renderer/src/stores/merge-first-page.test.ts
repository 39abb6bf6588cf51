import { describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../../shared/domain/session'
import { mergeFirstPage } from './merge-first-page'

const chat = (n: number, updatedAt = n): SessionSummary =>
  ({ id: `c${String(n).padStart(3, '0')}`, title: `Chat ${n}`, updatedAt }) as SessionSummary
/** Chats n..m, most recent first, as the server lists them. */
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => chat(from - i))
const cursor = (s: SessionSummary) => `${s.updatedAt}:${s.id}`
const titles = (l: { sessions: SessionSummary[] }) => l.sessions.map((s) => s.title)

describe('mergeFirstPage', () => {
  // 300 chats, pages of 100: three pages shown, chats 300..1 (the first page 300..201).
  const shown = { sessions: range(300, 1), nextCursor: null }

  it('puts a chat with a new message at the top and keeps the rest as read', () => {
    const moved = chat(5, 1000)
    const head = { sessions: [moved, ...range(300, 202)], nextCursor: cursor(chat(202)) }
    const merged = mergeFirstPage(shown, head)
    expect(merged.sessions).toHaveLength(300)
    expect(titles(merged).slice(0, 2)).toEqual(['Chat 5', 'Chat 300'])
    expect(titles(merged).filter((t) => t === 'Chat 5')).toHaveLength(1)
    expect(merged.nextCursor).toBeNull()
  })

  it('keeps the cursor of the pages already shown, so the next page follows the last one read', () => {
    const twoPages = { sessions: range(300, 101), nextCursor: cursor(chat(101)) }
    const head = { sessions: [chat(301), ...range(300, 202)], nextCursor: cursor(chat(202)) }
    const merged = mergeFirstPage(twoPages, head)
    expect(titles(merged).slice(0, 2)).toEqual(['Chat 301', 'Chat 300'])
    expect(merged.sessions).toHaveLength(201)
    expect(merged.nextCursor).toBe(cursor(chat(101)))
  })

  it('drops a chat deleted from the first page and shows a renamed one under its new title', () => {
    // Renaming is not activity: the chat keeps its place. Chat 200 fills the page in 260's place.
    const head = {
      sessions: range(300, 200)
        .filter((s) => s.id !== chat(260).id)
        .map((s) => (s.id === chat(250).id ? { ...s, title: 'Renamed' } : s)),
      nextCursor: cursor(chat(200))
    }
    const merged = mergeFirstPage(shown, head)
    expect(titles(merged)).not.toContain('Chat 260')
    expect(titles(merged)).toContain('Renamed')
    expect(titles(merged)).not.toContain('Chat 250')
    expect(merged.sessions).toHaveLength(299)
  })

  it('takes the fresh page as it is when it holds every chat', () => {
    const head = { sessions: range(3, 1), nextCursor: null }
    expect(mergeFirstPage(shown, head)).toBe(head)
  })
})
