import { and, desc, eq } from 'drizzle-orm'
import { summaryContentSchema, type Snapshot, type SummaryContent } from '../../../shared/domain/snapshot'
import type { Db } from '../client'
import { chatMessages, sessionSnapshots, type SessionSnapshotRow } from '../schema'
import { noteWrite } from './write-generation'

function toSnapshot(row: SessionSnapshotRow, cutoffSeq: number | null): Snapshot {
  return {
    id: row.id,
    sessionId: row.sessionId,
    kind: row.kind,
    // Validated on read: a malformed row surfaces as an error, never as a half-understood summary.
    content: summaryContentSchema.parse(row.contentJson),
    messageCutoffId: row.messageCutoffId,
    cutoffSeq: cutoffSeq ?? 0,
    tokenCount: row.tokenCount,
    status: row.status,
    createdAt: row.createdAt
  }
}

const withCutoff = (db: Db) =>
  db
    .select({ snapshot: sessionSnapshots, cutoffSeq: chatMessages.seq })
    .from(sessionSnapshots)
    .leftJoin(chatMessages, eq(chatMessages.id, sessionSnapshots.messageCutoffId))

/** The summary the context uses now (FR-1.5.3): the newest active one. */
export function activeSummary(db: Db, sessionId: string): Snapshot | undefined {
  return newestSummary(db, sessionId, 'active')
}

/** The chat's newest summary in that status ('draft': the one waiting for the user's review). */
export function newestSummary(db: Db, sessionId: string, status: Snapshot['status']): Snapshot | undefined {
  const row = withCutoff(db)
    .where(
      and(
        eq(sessionSnapshots.sessionId, sessionId),
        eq(sessionSnapshots.kind, 'summary'),
        eq(sessionSnapshots.status, status)
      )
    )
    .orderBy(desc(sessionSnapshots.createdAt), desc(sessionSnapshots.id))
    .limit(1)
    .get()
  return row ? toSnapshot(row.snapshot, row.cutoffSeq) : undefined
}

export function findSnapshot(db: Db, id: string): Snapshot | undefined {
  const row = withCutoff(db).where(eq(sessionSnapshots.id, id)).get()
  return row ? toSnapshot(row.snapshot, row.cutoffSeq) : undefined
}

/**
 * The summary a cascade into `summary` started from (undefined: none, it was made from messages
 * only). Rows older than `baseSnapshotId` stored one previous id for both undo and cascade; there a
 * previous version with the same cutoff was a regenerate of the same range, so its base is followed.
 */
export function cascadeBase(db: Db, summary: Snapshot): Snapshot | undefined {
  const { baseSnapshotId, previousSnapshotId } = summary.content
  if (baseSnapshotId !== undefined) return baseSnapshotId ? findSnapshot(db, baseSnapshotId) : undefined
  let previous = previousSnapshotId ? findSnapshot(db, previousSnapshotId) : undefined
  for (let guard = 0; previous && previous.messageCutoffId === summary.messageCutoffId && guard < 1000; guard++) {
    if (previous.content.baseSnapshotId !== undefined) return cascadeBase(db, previous)
    previous = previous.content.previousSnapshotId ? findSnapshot(db, previous.content.previousSnapshotId) : undefined
  }
  return previous
}

export function listSnapshots(db: Db, sessionId: string): Snapshot[] {
  return withCutoff(db)
    .where(eq(sessionSnapshots.sessionId, sessionId))
    .orderBy(desc(sessionSnapshots.createdAt), desc(sessionSnapshots.id))
    .all()
    .map((r) => toSnapshot(r.snapshot, r.cutoffSeq))
}

export function insertSummary(
  db: Db,
  row: {
    id: string
    sessionId: string
    content: SummaryContent
    messageCutoffId: string
    tokenCount: number
    createdAt: number
    kind?: Snapshot['kind']
    /** 'draft': a summary waiting for the user's review. */
    status?: Snapshot['status']
  }
): void {
  db.insert(sessionSnapshots)
    .values({
      id: row.id,
      sessionId: row.sessionId,
      kind: row.kind ?? 'summary',
      contentJson: row.content,
      messageCutoffId: row.messageCutoffId,
      tokenCount: row.tokenCount,
      status: row.status ?? 'active',
      createdAt: row.createdAt
    })
    .run()
  // A summary changes which messages count (the cutoff), not the messages themselves.
  noteWrite(db, row.sessionId, Number.POSITIVE_INFINITY)
}

export function setSnapshotStatus(db: Db, id: string, status: Snapshot['status']): void {
  const row = db
    .update(sessionSnapshots)
    .set({ status })
    .where(eq(sessionSnapshots.id, id))
    .returning({ sessionId: sessionSnapshots.sessionId })
    .get()
  if (row) noteWrite(db, row.sessionId, Number.POSITIVE_INFINITY)
}

/** Message ids after which the user started a new topic (the tiered strategy's "New topic" marks). */
export function topicBoundaries(db: Db, sessionId: string): Set<string> {
  return new Set(
    listSnapshots(db, sessionId)
      .filter((s) => s.kind === 'topic' && s.content.tiered?.role === 'boundary' && s.status === 'active')
      .map((s) => s.messageCutoffId!)
  )
}
