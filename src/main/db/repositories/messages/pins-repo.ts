import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import type { Db } from '../../client'
import { chatMessages } from '../../schema'
import { noteWrite } from '../write-generation'
import { toChatMessage } from './messages-repo'

/** The pinned messages on a chat's path (the versions in use), oldest first; a partial index makes this a lookup. */
export function listPins(db: Db, sessionId: string): ChatMessage[] {
  return db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), isNotNull(chatMessages.pinnedAt), isNull(chatMessages.hiddenIn)))
    .orderBy(asc(chatMessages.seq))
    .all()
    .map(toChatMessage)
}

/** Pins (`at`) or unpins (null) one message; the caches of its chat from that message on are dropped. */
export function setPinned(db: Db, id: string, at: number | null): ChatMessage | undefined {
  const row = db.update(chatMessages).set({ pinnedAt: at }).where(eq(chatMessages.id, id)).returning().get()
  if (row) noteWrite(db, row.sessionId, row.seq)
  return row ? toChatMessage(row) : undefined
}
