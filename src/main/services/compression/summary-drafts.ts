import type { SummaryDraft } from '../../../shared/contract'
import type { Snapshot, SummaryContent } from '../../../shared/domain/snapshot'
import { AppError } from '../../../shared/app-error'
import {
  activeSummary,
  cascadeBase,
  findSnapshot,
  insertSummary,
  setSnapshotStatus
} from '../../db/repositories/snapshots-repo'
import { deleteDrafts, findDraft, updateDraft } from '../../db/repositories/summary-drafts-repo'
import { isOnPath } from '../../db/repositories/messages/message-versions-repo'
import type { Conversation } from '../conversation/conversation'
import type { ServiceDeps } from '../service-deps'
import { withUserNotes } from '../../../shared/domain/user-notes'

/** The active summary covers more than the draft (quick summaries went in while it waited). */
/** The most of a chat's usable budget a summary the user wrote may take (it goes in every later request whole). */
export const USER_SUMMARY_SHARE = 0.5

const folds = (conv: Conversation, draft: Snapshot) => !!conv.summary && conv.summary.cutoffSeq > draft.cutoffSeq

const gone = () => new AppError('not_found', 'The draft summary is no longer there; a newer one may have replaced it.')

/** The user's text as a summary's content: theirs, so later cascades carry it verbatim. */
function asUsers(content: SummaryContent, text: string, tokens: number): SummaryContent {
  const { appendedAt: _appended, ...rest } = content
  return { ...rest, summaryText: text, summaryTokenCount: tokens, userNotes: text, editedByUser: true }
}

/**
 * Review before the swap: the chat's draft summary (at most one), which replaces nothing until the
 * user accepts it, and the user's edits of a draft or of the active summary. The caller holds the
 * chat's compression lock around each call.
 */
export function createSummaryDrafts(
  deps: Pick<ServiceDeps, 'db' | 'clock' | 'ids' | 'emit'> & { conversation(sessionId: string): Conversation }
) {
  const { db, clock, ids, emit } = deps

  function changed(sessionId: string, usage: boolean): void {
    emit('compression.changed', { sessionId })
    if (usage) emit('usage.changed', { sessionId })
  }

  /**
   * The context tokens with the draft in place of the active summary: its covered history is what it
   * covers beyond the active one (stored counts, as every summary records them), one truth with the
   * trigger through `totalAfter`.
   */
  function after(conv: Conversation, draft: Snapshot): number {
    if (folds(conv, draft)) {
      // Folded into an offline summary the size of the one in use, plus the user's notes.
      const notes = draft.content.userNotes ? conv.countText(withUserNotes('', draft.content.userNotes)) : 0
      return conv.totalAfter(0, conv.summaryTokens + notes)
    }
    const covered = draft.content.originalTokenCount - (conv.summary?.content.originalTokenCount ?? 0)
    return conv.totalAfter(covered, draft.tokenCount, draft.messageCutoffId ?? undefined)
  }

  function draftOf(sessionId: string, draftId: string): Snapshot {
    const draft = findDraft(db, sessionId)
    if (!draft || draft.id !== draftId) throw gone()
    return draft
  }

  /** A message of its span edited since (a new version sets aside everything after it) leaves it describing another chat. */
  function current(draft: Snapshot): Snapshot {
    if (draft.messageCutoffId && !isOnPath(db, draft.messageCutoffId))
      throw new AppError(
        'conflict',
        'The conversation changed inside the span of this draft summary. Regenerate it, or discard it.'
      )
    return draft
  }

  function view(sessionId: string): SummaryDraft | null {
    const draft = findDraft(db, sessionId)
    if (!draft) return null
    const conv = deps.conversation(sessionId)
    return {
      snapshot: draft,
      newMessages: draft.content.messagesIncluded - (conv.summary?.content.messagesIncluded ?? 0),
      tokens: conv.cost(draft.tokenCount),
      freesTokens: conv.cost(conv.total()) - conv.cost(after(conv, draft))
    }
  }

  /**
   * The tokens of a summary the user wrote, refused with the numbers when it could not go in a request
   * whole beside recent messages: it is kept as written in every later summary, so one larger than
   * the room would be cut in every request and make every send summarize again.
   */
  function fitting(conv: Conversation, text: string): number {
    const tokens = conv.summaryTokensOf(text)
    const room = Math.floor(conv.budget.countedUsable * USER_SUMMARY_SHARE)
    if (tokens > room) {
      const percent = Math.round((100 * tokens) / Math.max(1, conv.budget.countedUsable))
      throw new AppError(
        'invalid_input',
        `This summary would take ${percent}% of the ${conv.cost(conv.budget.countedUsable).toLocaleString('en-US')} tokens a request of this chat may use; a summary may take at most ${Math.round(USER_SUMMARY_SHARE * 100)}%, so that recent messages still fit beside it. Shorten it by about ${conv.cost(tokens - room).toLocaleString('en-US')} tokens.`
      )
    }
    return tokens
  }

  function edit(sessionId: string, draftId: string, text: string): SummaryDraft {
    const draft = draftOf(sessionId, draftId)
    if (text !== draft.content.summaryText || !draft.content.editedByUser) {
      const tokens = fitting(deps.conversation(sessionId), text)
      updateDraft(db, draft.id, { content: asUsers(draft.content, text, tokens), tokenCount: tokens })
      changed(sessionId, false)
    }
    return view(sessionId)!
  }

  return {
    view,
    edit,

    /**
     * The draft becomes the active summary in one transaction; Undo re-activates the summary it
     * replaced. It covers its own span from its base: when a quick summary went in meanwhile (the
     * threshold was reached while it waited), the messages after the draft's cutoff are simply sent
     * again, so nothing after the active summary's cutoff is ever left out.
     */
    accept(sessionId: string, draftId: string, text?: string): { active: Snapshot } {
      if (text !== undefined && text !== draftOf(sessionId, draftId).content.summaryText) edit(sessionId, draftId, text)
      const draft = current(draftOf(sessionId, draftId))
      const conv = deps.conversation(sessionId)
      db.transaction((tx) => {
        const current = activeSummary(tx, sessionId)
        if (current) setSnapshotStatus(tx, current.id, 'superseded')
        updateDraft(tx, draft.id, {
          content: {
            ...draft.content,
            restoresSnapshotId: current?.id ?? null,
            contextTokensBefore: conv.contextTokens(),
            contextTokensAfter: conv.cost(after(conv, draft))
          },
          tokenCount: draft.tokenCount,
          status: 'active',
          // The newest summary of the chat from now on.
          createdAt: clock.now()
        })
      })
      changed(sessionId, true)
      return { active: findSnapshot(db, draft.id)! }
    },

    discard(sessionId: string, draftId: string): { discarded: boolean } {
      const draft = findDraft(db, sessionId)
      if (!draft || draft.id !== draftId) return { discarded: false }
      deleteDrafts(db, sessionId)
      changed(sessionId, false)
      return { discarded: true }
    },

    /** The active summary replaced by the user's text: same span and base, Undo restores the previous text. */
    editActive(sessionId: string, text: string): { active: Snapshot } {
      const active = activeSummary(db, sessionId)
      if (!active) throw new AppError('nothing_to_do', 'There is no summary to edit.')
      const conv = deps.conversation(sessionId)
      const tokens = fitting(conv, text)
      const id = ids()
      db.transaction((tx) => {
        setSnapshotStatus(tx, active.id, 'superseded')
        insertSummary(tx, {
          id,
          sessionId,
          content: {
            ...asUsers(active.content, text, tokens),
            restoresSnapshotId: active.id,
            baseSnapshotId: cascadeBase(tx, active)?.id ?? null,
            contextTokensBefore: conv.contextTokens(),
            contextTokensAfter: conv.cost(conv.totalAfter(0, tokens))
          },
          messageCutoffId: active.messageCutoffId!,
          tokenCount: tokens,
          createdAt: clock.now()
        })
      })
      changed(sessionId, true)
      return { active: findSnapshot(db, id)! }
    },

    /**
     * The draft (with the user's text saved first) when accepting it means folding the rest of the
     * active summary's span into it; undefined when it simply takes the active summary's place.
     */
    folded(sessionId: string, draftId: string, text?: string): Snapshot | undefined {
      const draft = current(draftOf(sessionId, draftId))
      if (!folds(deps.conversation(sessionId), draft)) return undefined
      if (text !== undefined && text !== draft.content.summaryText) edit(sessionId, draftId, text)
      return draftOf(sessionId, draftId)
    },

    /** A folded draft is kept as the base of the summary made from it, no longer waiting. */
    settle(draftId: string): void {
      const draft = findSnapshot(db, draftId)
      if (draft)
        updateDraft(db, draftId, { content: draft.content, tokenCount: draft.tokenCount, status: 'superseded' })
    },

    /** Whether the chat has a draft waiting (then nothing new is prepared over it). */
    pending: (sessionId: string) => findDraft(db, sessionId) !== undefined,

    drop: (sessionId: string) => deleteDrafts(db, sessionId)
  }
}
