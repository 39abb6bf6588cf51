import {
  datedOpeningsBefore,
  searchSummarized,
  summarizedAtSeqs,
  type RecallRow
} from '../db/repositories/history-repo'
import { listReplyRecalls, messageIdAt, saveReplyRecall } from '../db/repositories/recalls-repo'
import { EMPTY_RECALL, MIN_PASSAGE_TOKENS, planRecall, recallRoom, type RecallCandidate, type RecallPlan } from '../engine/recall/plan-recall'
import { dateLabel, datesMentioned, passageDay, statedDate, type StatedDate } from '../engine/recall/recall-date'
import { contentWords, recallQuery } from '../engine/recall/recall-query'
import type { Session } from '../../shared/domain/session'
import type { ServiceDeps } from './service-deps'
import type { SettingsService } from './settings-service'
import type { Conversation } from './conversation'
import { attachmentRecallRows, mergeRecallRows } from './attachment-recall'

/** Hits read from the index per request: more than ever fit, so the plan can choose. */
const SEARCH_LIMIT = 24

export type RecallService = ReturnType<typeof createRecallService>

/**
 * Recall (DESIGN §11): finds the summarized originals a pending message is about and plans them
 * into the room its request leaves, within the recall budget. Reads only; the engine chooses.
 */
export function createRecallService(deps: Pick<ServiceDeps, 'db'> & { settings: SettingsService }) {
  const { db, settings } = deps

  function enabled(session: Pick<Session, 'recall'>): boolean {
    return session.recall ?? settings.get().recallEnabled
  }

  /** Dates for messages: a date stated at the start of the nearest earlier message, else createdAt. */
  function dater(sessionId: string) {
    const stated = new Map<number, { date: StatedDate; createdAt: number } | undefined>()
    return (row: Omit<RecallRow, 'score'>): StatedDate => {
      if (!stated.has(row.seq)) {
        const found = datedOpeningsBefore(db, sessionId, row.seq)
          .map((o) => ({ date: statedDate(o.head), createdAt: o.createdAt }))
          .find((o) => o.date !== undefined)
        stated.set(row.seq, found ? { date: found.date!, createdAt: found.createdAt } : undefined)
      }
      return passageDay(row, stated.get(row.seq))
    }
  }

  /** The recalled passages for the request a conversation's pending user message would make. */
  function forRequest(conv: Conversation): RecallPlan {
    const summary = conv.summary
    const pending = conv.pending
    if (!summary || !pending || !enabled(conv.session)) return EMPTY_RECALL
    const query = recallQuery(pending.text)
    if (!query) return EMPTY_RECALL
    const used = conv.total()
    const budget = recallRoom({ usable: conv.budget.usable, usedTokens: used, percent: settings.get().recallBudgetPercent })
    if (budget < MIN_PASSAGE_TOKENS) return EMPTY_RECALL
    const beforeSeq = summary.cutoffSeq + 1
    const rows = mergeRecallRows(
      searchSummarized(db, conv.session.id, query, { beforeSeq, limit: SEARCH_LIMIT }),
      // Summarized messages' text, code and PDF files can be brought back too, labelled with their names.
      attachmentRecallRows(db, conv.session.id, query, { beforeSeq, limit: SEARCH_LIMIT })
    )
    if (rows.length === 0) return EMPTY_RECALL
    const neighbours = summarizedAtSeqs(db, conv.session.id, rows.flatMap((r) => [r.seq - 1, r.seq + 1]), beforeSeq)
    const dateOf = dater(conv.session.id)
    const candidate = (r: Omit<RecallRow, 'score'>): RecallCandidate => {
      const day = dateOf(r)
      return { id: r.messageId, seq: r.seq, role: r.role, text: r.text, date: dateLabel(day), day }
    }
    return planRecall({
      hits: rows.map((r) => ({ ...candidate(r), score: r.score })),
      neighbours: neighbours.map(candidate),
      budget,
      countTokens: (text) => conv.countText(text, 'system'),
      present: [summary.content.summaryText],
      mentioned: datesMentioned(pending.text),
      terms: contentWords(pending.text)
    })
  }

  return {
    enabled,
    forRequest,
    /** Remembers what a reply's request recalled, for the marks in the chat and in full history. */
    rememberFor(sessionId: string, replySeq: number, messageIds: string[]): void {
      const replyId = messageIdAt(db, sessionId, replySeq)
      if (replyId) saveReplyRecall(db, { replyId, sessionId, messageIds })
    },
    replies: (sessionId: string) => listReplyRecalls(db, sessionId)
  }
}
