import { and, eq } from 'drizzle-orm'
import type { Db } from '../client'
import { chatMessages, replyRecalls } from '../schema'

/** Remembers what a reply's request recalled (replaced when the reply is retried). */
export function saveReplyRecall(db: Db, row: { replyId: string; sessionId: string; messageIds: string[] }): void {
  const exists = db.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.id, row.replyId)).get()
  if (!exists) return
  if (row.messageIds.length === 0) {
    db.delete(replyRecalls).where(eq(replyRecalls.replyId, row.replyId)).run()
    return
  }
  db.insert(replyRecalls)
    .values(row)
    .onConflictDoUpdate({ target: replyRecalls.replyId, set: { messageIds: row.messageIds } })
    .run()
}

export function listReplyRecalls(db: Db, sessionId: string): Array<{ replyId: string; messageIds: string[] }> {
  return db
    .select({ replyId: replyRecalls.replyId, messageIds: replyRecalls.messageIds })
    .from(replyRecalls)
    .where(eq(replyRecalls.sessionId, sessionId))
    .all()
}

/** The id of the message at a seq of a chat (a reply's request is built knowing only its seq). */
export function messageIdAt(db: Db, sessionId: string, seq: number): string | undefined {
  return db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, sessionId), eq(chatMessages.seq, seq)))
    .get()?.id
}
