import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../client'
import { chatMessages, replyRecalls, sessions } from '../schema'
import { messageText } from '../../../shared/domain/chat-message'

/** Characters of a message of another chat kept for the note under a reply. */
const CROSS_CHAT_PREVIEW = 200

/**
 * Remembers what a reply's request recalled (replaced when the reply is retried): this chat's
 * summarized originals, and the messages of other chats of its project.
 */
export function saveReplyRecall(
  db: Db,
  row: { replyId: string; sessionId: string; messageIds: string[]; crossChatIds?: string[] }
): void {
  const exists = db.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.id, row.replyId)).get()
  if (!exists) return
  const crossChatIds = row.crossChatIds ?? []
  if (row.messageIds.length === 0 && crossChatIds.length === 0) {
    db.delete(replyRecalls).where(eq(replyRecalls.replyId, row.replyId)).run()
    return
  }
  db.insert(replyRecalls)
    .values({ ...row, crossChatIds })
    .onConflictDoUpdate({ target: replyRecalls.replyId, set: { messageIds: row.messageIds, crossChatIds } })
    .run()
}

/** A message of another chat a reply's request recalled, as the note under the reply names it. */
export interface CrossChatRecall {
  messageId: string
  sessionId: string
  chatTitle: string
  role: string
  /** The start of the message's text, whitespace collapsed. */
  preview: string
}

export function listReplyRecalls(
  db: Db,
  sessionId: string
): Array<{ replyId: string; messageIds: string[]; crossChat: CrossChatRecall[] }> {
  const rows = db
    .select({
      replyId: replyRecalls.replyId,
      messageIds: replyRecalls.messageIds,
      crossChatIds: replyRecalls.crossChatIds
    })
    .from(replyRecalls)
    .where(eq(replyRecalls.sessionId, sessionId))
    .all()
  const others = crossChatMessages(db, sessionId, [...new Set(rows.flatMap((r) => r.crossChatIds))])
  return rows.map(({ replyId, messageIds, crossChatIds }) => ({
    replyId,
    messageIds,
    // A message (or chat) deleted since is no longer there to name or open.
    crossChat: crossChatIds.flatMap((id) => others.get(id) ?? [])
  }))
}

/** Those of these messages that are in other chats than this one, with their chat's title. */
function crossChatMessages(db: Db, sessionId: string, ids: string[]): Map<string, CrossChatRecall> {
  if (ids.length === 0) return new Map()
  const found = db
    .select({
      messageId: chatMessages.id,
      sessionId: chatMessages.sessionId,
      chatTitle: sessions.title,
      role: chatMessages.role,
      parts: chatMessages.parts
    })
    .from(chatMessages)
    .innerJoin(sessions, eq(sessions.id, chatMessages.sessionId))
    .where(inArray(chatMessages.id, ids))
    .all()
  return new Map(
    found
      .filter((m) => m.sessionId !== sessionId)
      .map(({ parts, ...m }) => [
        m.messageId,
        { ...m, preview: messageText(parts).replace(/\s+/g, ' ').trim().slice(0, CROSS_CHAT_PREVIEW) }
      ])
  )
}

/** The id of the message at a seq of a chat (a reply's request is built knowing only its seq). */
export function messageIdAt(db: Db, sessionId: string, seq: number): string | undefined {
  return db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), eq(chatMessages.seq, seq)))
    .get()?.id
}
