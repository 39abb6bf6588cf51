import { withoutHiddenCharacters } from '../../../shared/domain/attachments'
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Project } from '../../../shared/domain/project'
import type { Db } from '../client'
import { chatMessages, projects, sessions, type ProjectRow } from '../schema'
import { FTS_FIRST, type RecallRow } from './search-repo'
import { sessionSummaries } from './sessions-repo'
import type { SessionSummary } from '../../../shared/domain/session'

const toProject = (row: ProjectRow): Project => ({ ...row })

export function listProjects(db: Db): Project[] {
  return db.select().from(projects).orderBy(asc(projects.name), asc(projects.id)).all().map(toProject)
}

export function findProject(db: Db, id: string): Project | undefined {
  const row = db.select().from(projects).where(eq(projects.id, id)).get()
  return row ? toProject(row) : undefined
}

/** A name as compared: Unicode case folding and compatibility forms ("ÄLPHA" is "älpha", "ﬁle" is "file"). */
export const foldName = (name: string) =>
  withoutHiddenCharacters(name).trim().normalize('NFKC').toLowerCase().normalize('NFKC')

/** The first project of that name, ignoring case in every script (a project list is short: compared here, not in SQL). */
export function findProjectByName(db: Db, name: string): Project | undefined {
  const wanted = foldName(name)
  const row = db
    .select()
    .from(projects)
    .orderBy(asc(projects.createdAt))
    .all()
    .find((p) => foldName(p.name) === wanted)
  return row ? toProject(row) : undefined
}

/** A project name as stored: without control or bidirectional-control characters (as a chat title). */
const named = <T extends { name?: string }>(row: T): T =>
  row.name === undefined ? row : { ...row, name: withoutHiddenCharacters(row.name).trim() || 'Untitled project' }

export function insertProject(db: Db, row: ProjectRow): Project {
  return toProject(db.insert(projects).values(named(row)).returning().get())
}

export function updateProject(
  db: Db,
  id: string,
  patch: Partial<Pick<ProjectRow, 'name' | 'recallAcrossChats'>>
): Project | undefined {
  const row = db.update(projects).set(named(patch)).where(eq(projects.id, id)).returning().get()
  return row ? toProject(row) : undefined
}

/**
 * Deletes a project and leaves its chats unfiled, in one transaction (the column's foreign key,
 * added by ALTER TABLE, has no ON DELETE action). Returns the chats that were in it.
 */
export function deleteProject(db: Db, id: string): string[] | undefined {
  return db.transaction((tx) => {
    const chats = tx
      .update(sessions)
      .set({ projectId: null })
      .where(eq(sessions.projectId, id))
      .returning({ id: sessions.id })
      .all()
      .map((r) => r.id)
    return tx.delete(projects).where(eq(projects.id, id)).run().changes > 0 ? chats : undefined
  })
}

/** A project's chats as the sidebar lists them, most recently active first (at most `limit`). */
export function projectChats(db: Db, projectId: string, limit: number): SessionSummary[] {
  const ids = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), eq(sessions.archived, false)))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
    .limit(limit)
    .all()
    .map((r) => r.id)
  const byId = sessionSummaries(db, ids)
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** The other chats of a project, with the titles their recalled passages are labelled with. */
export function otherChatsOf(db: Db, projectId: string, sessionId: string): Array<{ id: string; title: string }> {
  return db
    .select({ id: sessions.id, title: sessions.title })
    .from(sessions)
    .where(and(eq(sessions.projectId, projectId), ne(sessions.id, sessionId)))
    .all()
}

/**
 * Messages of the given chats matching a Recall query, best bm25 first: every user and assistant
 * message on each chat's path (another chat has no "already in the request" part). One MATCH over
 * those chats' doclists, so the scores are ranked together like a chat's own hits.
 */
export function searchChatsForRecall(
  db: Db,
  sessionIds: readonly string[],
  ftsQuery: string,
  limit: number
): Array<RecallRow & { sessionId: string }> {
  if (sessionIds.length === 0) return []
  const chats = sessionIds.map((id) => `"${id.replace(/-/g, '').replace(/"/g, '""')}"`).join(' OR ')
  return db.all(sql`
    SELECT m.session_id AS sessionId, m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
           messages_fts.text AS text, bm25(messages_fts, 1, 0, 0) AS score
      FROM ${FTS_FIRST}
     WHERE messages_fts MATCH ${`chat : (${chats}) AND text : (${ftsQuery})`}
       AND m.session_id IN (${sql.join(
         sessionIds.map((id) => sql`${id}`),
         sql`, `
       )}) AND m.hidden_in IS NULL
       AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')
     ORDER BY score
     LIMIT ${limit}`)
}

/** Which of these message ids are the chat's own (the rest came from other chats of its project). */
export function idsInChat(db: Db, sessionId: string, ids: readonly string[]): string[] {
  if (ids.length === 0) return []
  const own = new Set(
    db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(and(eq(chatMessages.sessionId, sessionId), inArray(chatMessages.id, [...ids])))
      .all()
      .map((r) => r.id)
  )
  return ids.filter((id) => own.has(id))
}
