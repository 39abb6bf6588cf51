import { and, eq } from 'drizzle-orm'
import type { Snapshot, SummaryContent } from '../../../shared/domain/snapshot'
import type { Db } from '../client'
import { sessionSnapshots } from '../schema'
import { newestSummary } from './snapshots-repo'
import { noteWrite } from './write-generation'

/** The chat's summary waiting for review (at most one is kept), or undefined. */
export function findDraft(db: Db, sessionId: string): Snapshot | undefined {
  return newestSummary(db, sessionId, 'draft')
}

/** Drops the chat's drafts: they never replaced anything, so nothing refers to them. */
export function deleteDrafts(db: Db, sessionId: string): void {
  db.delete(sessionSnapshots)
    .where(and(eq(sessionSnapshots.sessionId, sessionId), eq(sessionSnapshots.status, 'draft')))
    .run()
}

/** Rewrites a draft (an edit), or makes it the active summary with `status: 'active'` (accept). */
export function updateDraft(
  db: Db,
  id: string,
  patch: { content: SummaryContent; tokenCount: number; status?: Snapshot['status']; createdAt?: number }
): void {
  const row = db
    .update(sessionSnapshots)
    .set({
      contentJson: patch.content,
      tokenCount: patch.tokenCount,
      ...(patch.status ? { status: patch.status } : {}),
      ...(patch.createdAt !== undefined ? { createdAt: patch.createdAt } : {})
    })
    .where(and(eq(sessionSnapshots.id, id), eq(sessionSnapshots.status, 'draft')))
    .returning({ sessionId: sessionSnapshots.sessionId })
    .get()
  if (row) noteWrite(db, row.sessionId, Number.POSITIVE_INFINITY)
}
