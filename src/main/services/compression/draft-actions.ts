import type { Snapshot } from '../../../shared/domain/snapshot'
import { AppError } from '../../../shared/app-error'
import type { Db } from '../../db/client'
import { findDraft } from '../../db/repositories/summary-drafts-repo'
import type { Conversation } from '../conversation/conversation'
import type { createKeyedLock } from '../session-lock'
import type { RunRequest, RunResult } from './compression-run'
import type { createSummaryDrafts } from './summary-drafts'

export interface DraftActionsDeps {
  db: Db
  lock: ReturnType<typeof createKeyedLock>
  drafts: ReturnType<typeof createSummaryDrafts>
  conversation(sessionId: string): Conversation
  run(request: RunRequest, options?: { draft?: boolean }): Promise<RunResult>
  /** A summary's range written again (`from`: another base, offline), as Regenerate does. */
  regenerateRun(
    conv: Conversation,
    active: Snapshot,
    focus?: string,
    upgrade?: boolean | 'offline',
    from?: Snapshot
  ): Promise<RunRequest>
  /** Drops what was being prepared or upgraded for the summary in use: the span it was for changes. */
  stopPending(sessionId: string): void
}

/** The compression service's routes for review before the swap, each under the chat's lock. */
export function createDraftActions(deps: DraftActionsDeps) {
  const { lock, drafts } = deps
  return {
    editDraft: (sessionId: string, draftId: string, text: string) =>
      lock.run(sessionId, async () => drafts.edit(sessionId, draftId, text)),

    /**
     * The draft becomes the active summary. A draft that covers less than the summary in use (quick
     * summaries went in while it waited) is not a step back: it becomes the base of an offline
     * cascade over the rest, which replaces the quick summary (Undo brings that back).
     */
    acceptDraft: (sessionId: string, draftId: string, text?: string) =>
      lock.run(sessionId, async () => {
        deps.stopPending(sessionId)
        const conv = deps.conversation(sessionId)
        const draft = drafts.folded(sessionId, draftId, text)
        if (!draft) return drafts.accept(sessionId, draftId, text)
        const { snapshot } = await deps.run(await deps.regenerateRun(conv, conv.summary!, undefined, false, draft))
        drafts.settle(draft.id)
        return { active: snapshot }
      }),

    discardDraft: (sessionId: string, draftId: string) =>
      lock.run(sessionId, async () => drafts.discard(sessionId, draftId)),

    /** Writes the draft again over its own span (same base, same messages), with an optional focus. */
    regenerateDraft: (sessionId: string, focus?: string): Promise<RunResult> =>
      lock.run(sessionId, async () => {
        const draft = findDraft(deps.db, sessionId)
        if (!draft) throw new AppError('nothing_to_do', 'There is no draft summary to regenerate.')
        return deps.run(await deps.regenerateRun(deps.conversation(sessionId), draft, focus), { draft: true })
      }),

    editSummary: (sessionId: string, text: string) =>
      lock.run(sessionId, async () => {
        deps.stopPending(sessionId)
        return drafts.editActive(sessionId, text)
      })
  }
}
