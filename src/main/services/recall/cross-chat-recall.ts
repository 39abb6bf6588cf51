import { summarizedAtSeqs, type RecallRow } from '../../db/repositories/search-repo'
import { findProject, otherChatsOf, searchChatsForRecall } from '../../db/repositories/projects-repo'
import type { CandidateDate, RecallCandidate, RecallHit, RecallPlan } from '../../engine/recall/plan-recall'
import { dateLabel } from '../../engine/recall/recall-date'
import { passageDater, statedDates, type StatedDates } from './passage-day'
import type { Db } from '../../db/client'
import type { Session } from '../../../shared/domain/session'
import type { CrossChatPassage } from '../../../shared/contract'
import { notFound } from '../../../shared/app-error'

/** Whether Recall in this chat may reach the other chats of its project: the chat's own choice, else the project's. */
export function recallsAcrossChats(db: Db, session: Session): boolean {
  if (!session.projectId) return false
  if (session.recallAcrossChats !== null) return session.recallAcrossChats
  return findProject(db, session.projectId)?.recallAcrossChats ?? false
}

/**
 * Passages of the project's other chats matching a Recall query, as candidates the engine ranks
 * with the chat's own: every message on each chat's path (none of it is in this request), never a
 * chat outside the project. Each carries its chat, so its seqs stay apart and it is labelled.
 */
export function crossChatCandidates(
  db: Db,
  session: Session,
  query: string,
  options: { limit: number; exclude: ReadonlySet<string> }
): { hits: RecallHit[]; neighbours: RecallCandidate[]; dateOf: (c: RecallCandidate) => CandidateDate } {
  const createdAt = new Map<string, number>()
  const stated = new Map<string, StatedDates>()
  // Read per request: another chat's messages are not fixed by this chat's summary.
  const dateOf = (c: RecallCandidate): CandidateDate => {
    if (!stated.has(c.chat!.id)) stated.set(c.chat!.id, statedDates())
    const day = passageDater(
      db,
      c.chat!.id,
      stated.get(c.chat!.id)!
    )({ seq: c.seq, createdAt: createdAt.get(c.id) ?? 0 })
    return { date: dateLabel(day), day }
  }
  if (!recallsAcrossChats(db, session)) return { hits: [], neighbours: [], dateOf }
  const chats = new Map(otherChatsOf(db, session.projectId!, session.id).map((c) => [c.id, c]))
  const rows = searchChatsForRecall(db, [...chats.keys()], query, options.limit + options.exclude.size).filter(
    (r) => !options.exclude.has(r.messageId)
  )
  const candidate = (r: Omit<RecallRow, 'score'>, chatId: string): RecallCandidate => {
    createdAt.set(r.messageId, r.createdAt)
    return { id: r.messageId, seq: r.seq, role: r.role, text: r.text, chat: chats.get(chatId)! }
  }
  const hits = rows.slice(0, options.limit).map((r) => ({ ...candidate(r, r.sessionId), score: r.score }))
  const neighbours = [...new Set(hits.map((h) => h.chat!.id))].flatMap((chatId) =>
    summarizedAtSeqs(
      db,
      chatId,
      hits.filter((h) => h.chat!.id === chatId).flatMap((h) => [h.seq - 1, h.seq + 1]),
      Number.MAX_SAFE_INTEGER
    )
      .filter((r) => !options.exclude.has(r.messageId))
      .map((r) => candidate(r, chatId))
  )
  return { hits, neighbours, dateOf }
}

/**
 * What the inspector shows of the passages recalled from other chats, and the ones the user left out
 * of the chat's next request. Kept in memory per chat, and forgotten once that request is sent.
 */
export function createCrossChatLeaveOut() {
  const lastShown = new Map<string, Map<string, CrossChatPassage>>()
  const leftOut = new Map<string, Map<string, CrossChatPassage>>()

  return {
    /** Message ids this chat's next request must not recall. */
    excluded: (sessionId: string): ReadonlySet<string> => new Set(leftOut.get(sessionId)?.keys() ?? []),

    /** The other chats' passages of a plan (remembered, so one can be left out by its id). */
    report(sessionId: string, plan: RecallPlan): { passages: CrossChatPassage[]; leftOut: CrossChatPassage[] } {
      const passages = plan.passages.flatMap((p) =>
        p.chat
          ? [
              {
                messageId: p.id,
                sessionId: p.chat.id,
                chatTitle: p.chat.title,
                date: p.date,
                role: p.role,
                text: p.line.slice(p.role.length + 2)
              }
            ]
          : []
      )
      lastShown.set(sessionId, new Map(passages.map((p) => [p.messageId, p])))
      return { passages, leftOut: [...(leftOut.get(sessionId)?.values() ?? [])] }
    },

    set(sessionId: string, messageId: string, out: boolean): string[] {
      const current = leftOut.get(sessionId) ?? new Map<string, CrossChatPassage>()
      if (out) {
        const passage = lastShown.get(sessionId)?.get(messageId) ?? current.get(messageId)
        if (!passage) throw notFound('That recalled passage')
        current.set(messageId, passage)
      } else {
        current.delete(messageId)
      }
      leftOut.set(sessionId, current)
      return [...current.keys()]
    },

    /** The request was sent: what was left out comes back for the next one. */
    sent(sessionId: string): void {
      leftOut.delete(sessionId)
    }
  }
}
