import type { SessionSummary } from '../../../shared/domain/session'

interface Listed {
  sessions: SessionSummary[]
  nextCursor: string | null
}

/** The list's order (the server's): most recently active first, then by id, both descending. */
function before(a: Pick<SessionSummary, 'updatedAt' | 'id'>, b: Pick<SessionSummary, 'updatedAt' | 'id'>): boolean {
  return a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id)
}

/**
 * The sidebar after a chat changed, from a fresh first page and the pages already shown: a chat
 * that moved up (a new message, a rename) or a new one is taken from the fresh page, the chats
 * below it stay as they were read, so a long scrolled list is not read again. A chat listed above
 * the fresh page's end but missing from it is gone (deleted or archived).
 */
export function mergeFirstPage(shown: Listed, head: Listed): Listed {
  const last = head.sessions.at(-1)
  // The fresh page holds every chat: nothing shown can be below it.
  if (!last || head.nextCursor === null) return head
  const fresh = new Set(head.sessions.map((s) => s.id))
  const rest = shown.sessions.filter((s) => !fresh.has(s.id) && before(last, s))
  // Nothing shown lies below the fresh page: the pages below start where it ends.
  if (rest.length === 0) return head
  return { sessions: [...head.sessions, ...rest], nextCursor: shown.nextCursor }
}
