import { asc, eq, sql } from 'drizzle-orm'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import type { Db } from '../../client'
import { chatMessages } from '../../schema'
import { toChatMessage } from './messages-repo'
import { noteWrite } from '../write-generation'

/**
 * Versions of a message (a regenerated reply, an edited user message). Every version of one message
 * shares `version_group` (the first version's id). The conversation's path is the messages with
 * `hidden_in` null; the turns of a version not in use carry that version's id in `hidden_in`. A new
 * version always gets a higher seq than everything of the versions before it, so the path read in
 * seq order is the right order whichever versions are in use.
 */

export interface VersionInfo {
  /** 1-based, in the order the versions were made. */
  number: number
  count: number
}

/** Puts a message and every later message on the path aside as the turns of that version. */
export function setAsideFrom(db: Db, sessionId: string, head: { id: string; seq: number }): void {
  db.run(sql`UPDATE chat_messages SET version_group = coalesce(version_group, ${head.id}) WHERE id = ${head.id}`)
  db.run(sql`UPDATE chat_messages SET hidden_in = ${head.id}
              WHERE session_id = ${sessionId} AND seq >= ${head.seq} AND hidden_in IS NULL`)
  noteWrite(db, sessionId, head.seq)
}

/** The group a message's new version joins (the first version's id). */
export function versionGroupOf(db: Db, id: string): string | undefined {
  return (
    db.get<{ g: string | null }>(sql`SELECT version_group AS g FROM chat_messages WHERE id = ${id}`)?.g ?? undefined
  )
}

/** The versions of one group, oldest first, with the first seq of their turns. */
export function listVersions(db: Db, group: string): Array<{ id: string; seq: number; hiddenIn: string | null }> {
  return db.all(
    sql`SELECT id, seq, hidden_in AS hiddenIn FROM chat_messages WHERE version_group = ${group} ORDER BY seq`
  )
}

/** Brings a version's turns back onto the path (the version in use was set aside first). */
export function restoreVersion(db: Db, sessionId: string, headId: string): void {
  const first = db.get<{ seq: number | null }>(
    sql`SELECT min(seq) AS seq FROM chat_messages WHERE hidden_in = ${headId}`
  )?.seq
  db.run(sql`UPDATE chat_messages SET hidden_in = NULL WHERE session_id = ${sessionId} AND hidden_in = ${headId}`)
  noteWrite(db, sessionId, first ?? 0)
}

/** Number and count for every versioned message on the path of a chat (id → info). */
export function versionsOnPath(db: Db, sessionId: string): Map<string, VersionInfo> {
  const rows = db.all<{ id: string; g: string; hiddenIn: string | null }>(sql`
    SELECT id, version_group AS g, hidden_in AS hiddenIn FROM chat_messages
     WHERE session_id = ${sessionId} AND version_group IS NOT NULL ORDER BY seq`)
  const byGroup = new Map<string, string[]>()
  for (const r of rows) byGroup.set(r.g, [...(byGroup.get(r.g) ?? []), r.id])
  const out = new Map<string, VersionInfo>()
  for (const r of rows) {
    const ids = byGroup.get(r.g)!
    if (r.hiddenIn !== null || ids.length < 2) continue
    out.set(r.id, { number: ids.indexOf(r.id) + 1, count: ids.length })
  }
  return out
}

/** Number and count of one message's version, when it has more than one. */
export function versionInfo(db: Db, id: string): VersionInfo | undefined {
  const group = versionGroupOf(db, id)
  if (!group) return undefined
  const ids = db
    .all<{ id: string }>(sql`SELECT id FROM chat_messages WHERE version_group = ${group} ORDER BY seq`)
    .map((r) => r.id)
  return ids.length > 1 ? { number: ids.indexOf(id) + 1, count: ids.length } : undefined
}

/**
 * Number and count for the versioned messages among `ids` (id → info): what a page of the
 * conversation shows as ‹ 2/3 ›, read through the version_group index for those messages only.
 */
export function versionsOf(db: Db, ids: readonly string[]): Map<string, VersionInfo> {
  const out = new Map<string, VersionInfo>()
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500)
    if (batch.length === 0) continue
    const rows = db.all<{ id: string; number: number; count: number }>(sql`
      SELECT m.id AS id,
             (SELECT count(*) FROM chat_messages v WHERE v.version_group = m.version_group AND v.seq <= m.seq) AS number,
             (SELECT count(*) FROM chat_messages v WHERE v.version_group = m.version_group) AS count
        FROM chat_messages m
       WHERE m.version_group IS NOT NULL AND m.id IN (${sql.join(
         batch.map((id) => sql`${id}`),
         sql`, `
       )})`)
    for (const r of rows) if (r.count > 1) out.set(r.id, { number: r.number, count: r.count })
  }
  return out
}

/** Whether a message is on its chat's path (not set aside as the turn of another version). */
export function isOnPath(db: Db, id: string): boolean {
  return !!db.get(sql`SELECT 1 FROM chat_messages WHERE id = ${id} AND hidden_in IS NULL`)
}

/** A message with its place among versions, as an export writes it. */
export type VersionedMessage = ChatMessage & { versionGroup: string | null; hiddenIn: string | null }

/** Every message of a chat, the versions set aside included, in seq order (what an export carries). */
export function listAllVersions(db: Db, sessionId: string): VersionedMessage[] {
  return db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.sessionId, sessionId))
    .orderBy(asc(chatMessages.seq))
    .all()
    .map((row) => ({ ...toChatMessage(row), versionGroup: row.versionGroup, hiddenIn: row.hiddenIn }))
}
