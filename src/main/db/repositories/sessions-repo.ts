import { withoutHiddenCharacters } from '../../../shared/domain/attachments'
import { and, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm'
import type { Session, SessionSummary } from '../../../shared/domain/session'
import { messageText, type MessagePart } from '../../../shared/domain/chat-message'
import { markdownToPlainText } from '../../../shared/plain-text'
import type { Db } from '../client'
import { chatMessages, sessions, type NewSessionRow, type SessionRow } from '../schema'

export function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    title: row.title,
    provider: row.provider,
    modelId: row.modelId,
    strategy: row.strategy,
    autoCompress: row.autoCompress,
    recall: row.recall ?? null,
    reviewSummaries: row.reviewSummaries ?? null,
    systemPrompt: row.systemPrompt,
    contextWindow: row.contextWindow ?? null,
    maxOutput: row.maxOutput ?? null,
    thresholdPercent: row.thresholdPercent ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archived: row.archived,
    projectId: row.projectId ?? null,
    recallAcrossChats: row.recallAcrossChats ?? null
  }
}

/**
 * A title as stored, whatever door it came through (typed, generated, imported): without control or
 * bidirectional-control characters, which would make the sidebar show something else than it holds.
 */
const shown = <T extends { title?: string }>(row: T): T =>
  row.title === undefined ? row : { ...row, title: withoutHiddenCharacters(row.title).trim() || 'Untitled' }

export function insertSession(db: Db, row: NewSessionRow): Session {
  return toSession(db.insert(sessions).values(shown(row)).returning().get())
}

/** Whether a chat has this exact title (an imported copy of it is named as a copy). */
export function titleTaken(db: Db, title: string): boolean {
  return db.select({ id: sessions.id }).from(sessions).where(eq(sessions.title, title)).limit(1).get() !== undefined
}

export function findSession(db: Db, id: string): Session | undefined {
  const row = db.select().from(sessions).where(eq(sessions.id, id)).get()
  return row ? toSession(row) : undefined
}

export function updateSession(
  db: Db,
  id: string,
  patch: Partial<Omit<NewSessionRow, 'id' | 'createdAt'>>
): Session | undefined {
  const row = db.update(sessions).set(shown(patch)).where(eq(sessions.id, id)).returning().get()
  return row ? toSession(row) : undefined
}

export function deleteSession(db: Db, id: string): boolean {
  return db.delete(sessions).where(eq(sessions.id, id)).run().changes > 0
}

/** Every chat that is not archived, without counts or previews (work over all chats, not a list to show). */
export function allSessions(db: Db): Session[] {
  return db.select().from(sessions).where(eq(sessions.archived, false)).all().map(toSession)
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%" and not everything. */
function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Titles holding this text literally. */
function titleHolds(text: string): SQL {
  return like(sessions.title, likePattern(text)).append(sql` ESCAPE '\\'`)
}

const PREVIEW_CHARS = 120
/** Enough Markdown to fill a preview once its syntax is gone. */
const PREVIEW_SOURCE_CHARS = 2000

/** Where a page of the chat list starts: after this chat in the list's order. */
export interface SessionCursor {
  updatedAt: number
  id: string
}

/**
 * Sessions, most recently active first, optionally filtered by a title search: all of them, or a
 * page of `limit` after `after`. The order (updated_at, then id) is total, so a page never repeats
 * or skips a chat that did not move meanwhile.
 */
export function listSessions(
  db: Db,
  query?: string,
  page?: { after?: SessionCursor; limit: number }
): SessionSummary[] {
  const q = query?.trim()
  const after = page?.after
  return summaries(
    db,
    and(
      q ? titleHolds(q) : undefined,
      after
        ? sql`(${sessions.updatedAt} < ${after.updatedAt} OR (${sessions.updatedAt} = ${after.updatedAt} AND ${sessions.id} < ${after.id}))`
        : undefined
    ),
    page?.limit
  )
}

/** Sessions whose title holds every one of the words (in any order), most recently active first. */
export function sessionsWithTitleWords(db: Db, words: readonly string[], limit?: number): SessionSummary[] {
  if (words.length === 0) return []
  return summaries(db, and(...words.map(titleHolds)), limit)
}

/** The sidebar summaries of these sessions, by id. */
export function sessionSummaries(db: Db, ids: readonly string[]): Map<string, SessionSummary> {
  if (ids.length === 0) return new Map()
  return new Map(summaries(db, inArray(sessions.id, [...ids])).map((s) => [s.id, s]))
}

function summaries(db: Db, filter: SQL | undefined, limit?: number): SessionSummary[] {
  const query = db
    // The subqueries name the outer table explicitly: drizzle renders a bare column unqualified.
    .select({
      session: sessions,
      messageCount: sql<number>`(SELECT count(*) FROM ${chatMessages} m WHERE m.session_id = "sessions"."id" AND m.hidden_in IS NULL)`,
      lastParts: sql<
        string | null
      >`(SELECT m.parts FROM ${chatMessages} m WHERE m.session_id = "sessions"."id" AND m.hidden_in IS NULL AND json_array_length(m.parts) > 0 ORDER BY m.seq DESC LIMIT 1)`
    })
    .from(sessions)
    .where(and(eq(sessions.archived, false), filter))
    // The count and preview subqueries run for the rows returned only, so a page costs what it shows.
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
  const rows = (limit === undefined ? query : query.limit(limit)).all()
  return rows.map(({ session, messageCount, lastParts }) => {
    // Plain text, not Markdown: a preview reads "Context The user…", not "## Context".
    const text = lastParts
      ? markdownToPlainText(messageText(JSON.parse(lastParts) as MessagePart[]).slice(0, PREVIEW_SOURCE_CHARS))
      : ''
    return {
      ...toSession(session),
      messageCount,
      lastMessagePreview: text ? text.slice(0, PREVIEW_CHARS) : null
    }
  })
}
