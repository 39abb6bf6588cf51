import { and, eq, ne } from 'drizzle-orm'
import { summaryContentSchema } from '../../../shared/domain/snapshot'
import type { Db } from '../client'
import { chatMessages, replyRecalls, sessionSnapshots, sessions } from '../schema'

/** The tiered strategy's topic and bulk ids are made from a message id (`topic-<id>`, `bulk-<id>`). */
const TIER_ID = /^(?:topic|bulk)-(.+)$/

/** At most this many problems are listed: a chat that is wrong everywhere needs no 100,000 lines. */
const MAX_PROBLEMS = 50

/**
 * Checks that every id a chat's rows hold names a row of that same chat: each message's version
 * links, each snapshot's cutoff, message range and links to other snapshots (what Undo re-activates,
 * the cascade's base, the summary a topic or bulk belongs to), the messages the tiered history names
 * and what its replies recalled; and that at most one summary is active and at most one waits for
 * review. Returns the problems in sentences, none when the chat is sound.
 *
 * A link into another chat is the worst of these: Undo in one chat would change another.
 */
export function checkChatIntegrity(db: Db, sessionId: string): string[] {
  const problems: string[] = []
  const problem = (text: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(text)
  }
  if (!db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).get())
    return [`Chat ${sessionId} does not exist.`]

  const messages = db
    .select({ id: chatMessages.id, versionGroup: chatMessages.versionGroup, hiddenIn: chatMessages.hiddenIn })
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, sessionId))
    .all()
  const messageIds = new Set(messages.map((m) => m.id))
  const snapshots = db.select().from(sessionSnapshots).where(eq(sessionSnapshots.sessionId, sessionId)).all()
  const snapshotIds = new Set(snapshots.map((s) => s.id))

  /** Where an id that is not this chat's points: another chat's row, or nothing. */
  const messageElsewhere = (id: string) =>
    db
      .select({ sessionId: chatMessages.sessionId })
      .from(chatMessages)
      .where(and(eq(chatMessages.id, id), ne(chatMessages.sessionId, sessionId)))
      .get()?.sessionId
  const snapshotElsewhere = (id: string) =>
    db
      .select({ sessionId: sessionSnapshots.sessionId })
      .from(sessionSnapshots)
      .where(and(eq(sessionSnapshots.id, id), ne(sessionSnapshots.sessionId, sessionId)))
      .get()?.sessionId
  const message = (id: string) => {
    const other = messageElsewhere(id)
    return other ? `message ${id} of another chat (${other})` : `message ${id}, which does not exist`
  }
  const snapshot = (id: string) => {
    const other = snapshotElsewhere(id)
    return other ? `snapshot ${id} of another chat (${other})` : `snapshot ${id}, which does not exist`
  }

  for (const m of messages) {
    if (m.versionGroup !== null && !messageIds.has(m.versionGroup))
      problem(`Message ${m.id} has the version group of ${message(m.versionGroup)}.`)
    if (m.hiddenIn !== null && !messageIds.has(m.hiddenIn))
      problem(`Message ${m.id} is set aside in the version of ${message(m.hiddenIn)}.`)
  }

  let active = 0
  let drafts = 0
  for (const row of snapshots) {
    if (row.kind === 'summary' && row.status === 'active') active++
    if (row.kind === 'summary' && row.status === 'draft') drafts++
    const name = `${row.kind === 'summary' ? 'Summary' : `Snapshot (${row.kind})`} ${row.id}`
    if (row.messageCutoffId !== null && !messageIds.has(row.messageCutoffId))
      problem(`${name} covers up to ${message(row.messageCutoffId)}.`)
    const parsed = summaryContentSchema.safeParse(row.contentJson)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      problem(`${name} has malformed content at ${issue.path.join('.') || 'its top'}: ${issue.message}`)
      continue
    }
    const c = parsed.data
    for (const [field, id] of [
      ['first message', c.messageRange.firstMessageId],
      ['last message', c.messageRange.lastMessageId]
    ] as const) {
      if (!messageIds.has(id)) problem(`${name} names as its ${field} ${message(id)}.`)
    }
    for (const [field, id] of [
      ['summary Undo re-activates', c.restoresSnapshotId],
      ['cascade base', c.baseSnapshotId],
      ['previous summary', c.previousSnapshotId],
      ['own summary', c.tiered?.summarySnapshotId]
    ] as const) {
      if (id === undefined || id === null) continue
      if (id === row.id) problem(`${name} names itself as its ${field}.`)
      else if (!snapshotIds.has(id)) problem(`${name} names as its ${field} ${snapshot(id)}.`)
    }
    const tierIds = [
      ...(c.tiered?.topics.map((t) => t.id) ?? []),
      ...(c.tiered?.bulks.flatMap((b) => [b.id, ...b.topicIds]) ?? [])
    ]
    for (const id of new Set(tierIds)) {
      const messageId = TIER_ID.exec(id)?.[1]
      if (messageId === undefined || messageIds.has(messageId)) continue
      const other = messageElsewhere(messageId)
      if (other) problem(`${name} names topic ${id}, made from a message of another chat (${other}).`)
    }
  }
  if (active > 1) problem(`The chat has ${active} active summaries; at most one may be active.`)
  if (drafts > 1) problem(`The chat has ${drafts} summaries waiting for review; at most one is kept.`)

  const recalls = db
    .select({ replyId: replyRecalls.replyId, messageIds: replyRecalls.messageIds })
    .from(replyRecalls)
    .where(eq(replyRecalls.sessionId, sessionId))
    .all()
  for (const r of recalls) {
    if (!messageIds.has(r.replyId)) problem(`The recall of reply ${r.replyId} belongs to ${message(r.replyId)}.`)
    for (const id of r.messageIds) if (!messageIds.has(id)) problem(`Reply ${r.replyId} recalled ${message(id)}.`)
  }
  return problems
}
