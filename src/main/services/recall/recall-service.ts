import { messagesWithTerm, searchSummarized, summarizedAtSeqs, type RecallRow } from '../../db/repositories/search-repo'
import { listReplyRecalls, messageIdAt, saveReplyRecall } from '../../db/repositories/recalls-repo'
import {
  EMPTY_RECALL,
  MIN_PASSAGE_TOKENS,
  planRecall,
  recallRoom,
  type CandidateDate,
  type RecallCandidate,
  type RecallPlan
} from '../../engine/recall/plan-recall'
import { dateLabel, datesMentioned } from '../../engine/recall/recall-date'
import { quotedIn } from '../../engine/recall/excerpt'
import { askedText, contentWords, recallQuery } from '../../engine/recall/recall-query'
import { addressCounts, nameCandidates, roleOfName } from '../../engine/recall/speaker-names'
import type { Session } from '../../../shared/domain/session'
import type { ServiceDeps } from '../service-deps'
import type { SettingsService } from '../settings/settings-service'
import type { Conversation } from '../conversation/conversation'
import { attachmentRecallRows, mergeRecallRows } from './attachment-recall'
import { filesBefore, type ChatFile } from '../../db/repositories/attachment-chunks-repo'
import { idsInChat } from '../../db/repositories/projects-repo'
import { activeSummary } from '../../db/repositories/snapshots-repo'
import { createCrossChatLeaveOut, crossChatCandidates, recallsAcrossChats } from './cross-chat-recall'
import { passageDater, statedDates, type StatedDates } from './passage-day'
import { LruCache } from '../../tokens/lru-cache'

/** Hits read from the index per request: more than ever fit, so the plan can choose. */
const SEARCH_LIMIT = 60
/** Recall lines whose counts are kept (a plan tries up to ~180 candidates, each a few ways). */
const LINE_COUNT_CACHE = 4_096
/** Sentences per summary whose "already quoted" answer is kept. */
const QUOTED_CACHE = 8_192
/** Messages read to learn who a name is: the newest that hold it. */
const NAME_SAMPLE = 200
/** Names remembered across sends, at most. */
const NAME_CACHE = 500
/** Chats whose summarized dates and files are kept, at most. */
const SUMMARY_CACHE = 64

export type RecallService = ReturnType<typeof createRecallService>

/**
 * Recall (DESIGN §11): finds the summarized originals a pending message is about and plans them
 * into the room its request leaves, within the recall budget. Reads only; the engine chooses.
 */
export function createRecallService(
  deps: Pick<ServiceDeps, 'db'> & Partial<Pick<ServiceDeps, 'emit'>> & { settings: SettingsService }
) {
  const { db, settings, emit } = deps
  const leaveOut = createCrossChatLeaveOut()

  function enabled(session: Session): boolean {
    return settings.forChat(session).recall
  }

  /**
   * Counts of the lines Recall tries, by counter and text: the same passages are tried again on the
   * next pause in typing and on the send, and counting them was a third of a plan's time.
   */
  const lineCounts = new LruCache<string, number>(LINE_COUNT_CACHE)
  /**
   * What Recall keeps per chat and summary: summarized messages never change (they cannot be edited,
   * and a new summary is a new key), so their dates and the files they carry are read once, not on
   * every keystroke of a draft.
   */
  const perSummary = new Map<
    string,
    { stated: StatedDates; files?: ChatFile[]; quoted?: { text: string; test: (sentence: string) => boolean } }
  >()
  function summaryCache(sessionId: string, summaryId: string) {
    const key = `${sessionId}:${summaryId}`
    let entry = perSummary.get(key)
    if (!entry) {
      if (perSummary.size >= SUMMARY_CACHE) perSummary.clear()
      entry = { stated: statedDates() }
      perSummary.set(key, entry)
    }
    return entry
  }

  /**
   * Whether the summary already quotes a sentence, built once per summary and remembering its
   * answers: every pause in typing plans against the same summary and mostly the same passages.
   */
  function quotedBy(sessionId: string, summaryId: string, summaryText: string) {
    const cache = summaryCache(sessionId, summaryId)
    // Built again if the summary's text changed under the same id (the user edited it).
    if (cache.quoted?.text !== summaryText) {
      const quoted = quotedIn([summaryText])
      const answers = new LruCache<string, boolean>(QUOTED_CACHE)
      cache.quoted = {
        text: summaryText,
        test: (sentence) => {
          let answer = answers.get(sentence)
          if (answer === undefined) answers.set(sentence, (answer = quoted(sentence)))
          return answer
        }
      }
    }
    return cache.quoted.test
  }

  /** Dates for messages, read once per chat and summary. */
  const dater = (sessionId: string, summaryId: string) =>
    passageDater(db, sessionId, summaryCache(sessionId, summaryId).stated)

  /** Who each name is, per chat and summary: learned again after each compression, not on every send. */
  const nameRoles = new Map<string, 'user' | 'assistant' | undefined>()
  function roleOf(sessionId: string, summaryId: string, name: string) {
    const key = `${sessionId}:${summaryId}:${name}`
    if (!nameRoles.has(key)) {
      if (nameRoles.size >= NAME_CACHE) nameRoles.clear()
      nameRoles.set(key, roleOfName(addressCounts(name, messagesWithTerm(db, sessionId, `"${name}"`, NAME_SAMPLE))))
    }
    return nameRoles.get(key)
  }

  /** The names a message may use that are among its content words. */
  function namesIn(text: string): string[] {
    const words = new Set(contentWords(text))
    return nameCandidates(text).filter((name) => words.has(name))
  }

  /** The side a message's names are (when they all are one side), and those names. */
  function namedSpeaker(
    sessionId: string,
    summaryId: string,
    text: string
  ): { role?: 'user' | 'assistant'; names: string[] } {
    const roles = new Set<'user' | 'assistant'>()
    const names: string[] = []
    for (const name of namesIn(text)) {
      const role = roleOf(sessionId, summaryId, name)
      if (!role) continue
      roles.add(role)
      names.push(name)
    }
    return roles.size === 1 ? { role: [...roles][0], names } : { names: [] }
  }

  /** This chat's summarized originals matching the query, with their neighbours (none without a summary). */
  function ownCandidates(conv: Conversation, query: string, exclude: ReadonlySet<string>) {
    const summary = conv.summary
    if (!summary) return undefined
    const beforeSeq = summary.cutoffSeq + 1
    const cache = summaryCache(conv.session.id, summary.id)
    const files = (cache.files ??= filesBefore(db, conv.session.id, beforeSeq))
    const rows = mergeRecallRows(
      searchSummarized(db, conv.session.id, query, { beforeSeq, limit: SEARCH_LIMIT, excludeIds: [...exclude] }),
      // Summarized messages' text, code and PDF files can be brought back too, labelled with their names.
      attachmentRecallRows(db, conv.session.id, query, { beforeSeq, limit: SEARCH_LIMIT, files })
    )
    const neighbours = rows.length
      ? summarizedAtSeqs(
          db,
          conv.session.id,
          rows.flatMap((r) => [r.seq - 1, r.seq + 1]),
          beforeSeq
        ).filter((r) => !exclude.has(r.messageId))
      : []
    const dayOf = dater(conv.session.id, summary.id)
    const createdAt = new Map([...rows, ...neighbours].map((r) => [r.seq, r.createdAt]))
    const candidate = (r: Omit<RecallRow, 'score'>): RecallCandidate => ({
      id: r.messageId,
      seq: r.seq,
      role: r.role,
      text: r.text
    })
    return {
      hits: rows.map((r) => ({ ...candidate(r), score: r.score })),
      neighbours: neighbours.map(candidate),
      dateOf: (c: RecallCandidate): CandidateDate => {
        const day = dayOf({ seq: c.seq, createdAt: createdAt.get(c.seq) ?? 0 })
        return { date: dateLabel(day), day }
      }
    }
  }

  /**
   * The recalled passages for the request a conversation's pending user message would make: this
   * chat's summarized originals and, when its project allows, the other chats' messages, ranked together.
   */
  function forRequest(conv: Conversation): RecallPlan {
    const summary = conv.summary
    const pending = conv.pending
    if (!pending || !enabled(conv.session)) return EMPTY_RECALL
    if (!summary && !recallsAcrossChats(db, conv.session)) return EMPTY_RECALL
    // A name the chat addresses one side by finds the other side's greetings, not that person's own words.
    const asked = askedText(pending.text)
    const speaker = summary ? namedSpeaker(conv.session.id, summary.id, asked) : { names: [] }
    const query = recallQuery(asked, speaker.names) ?? recallQuery(asked)
    if (!query) return EMPTY_RECALL
    // Counted tokens, like every part of the request the context builder fits.
    const budget = recallRoom({
      usable: conv.budget.countedUsable,
      usedTokens: conv.total(),
      percent: settings.get().recallBudgetPercent
    })
    if (budget < MIN_PASSAGE_TOKENS) return EMPTY_RECALL
    const exclude = leaveOut.excluded(conv.session.id)
    const own = ownCandidates(conv, query, exclude)
    const across = crossChatCandidates(db, conv.session, query, { limit: SEARCH_LIMIT, exclude })
    const hits = [...(own?.hits ?? []), ...across.hits]
    if (hits.length === 0) return EMPTY_RECALL
    return planRecall({
      dateOf: (c) => (c.chat ? across.dateOf(c) : own!.dateOf(c)),
      hits,
      neighbours: [...(own?.neighbours ?? []), ...across.neighbours],
      budget,
      countTokens: (text) => {
        const key = `${conv.spec.provider}:${conv.spec.id}\u0000${text}`
        let tokens = lineCounts.get(key)
        if (tokens === undefined) lineCounts.set(key, (tokens = conv.countText(text, 'system')))
        return tokens
      },
      present: summary ? [summary.content.summaryText] : [],
      ...(summary ? { quoted: quotedBy(conv.session.id, summary.id, summary.content.summaryText) } : {}),
      mentioned: datesMentioned(asked),
      terms: contentWords(asked),
      speaker: 'role' in speaker ? speaker.role : undefined
    })
  }

  return {
    enabled,
    forRequest,
    /**
     * Learns who the names of a pending message are before the synchronous plan asks, one read of
     * the chat per name with the event loop given back between them: a long paste can hold dozens
     * of names, and learning them in one piece held every other request for a tenth of a second.
     * The plan finds them remembered and decides as it would have.
     */
    async learnNames(session: Session, text: string): Promise<void> {
      if (!text.trim() || !enabled(session)) return
      const summary = activeSummary(db, session.id)
      if (!summary) return
      for (const name of namesIn(askedText(text))) {
        if (nameRoles.has(`${session.id}:${summary.id}:${name}`)) continue
        await new Promise((resolve) => setImmediate(resolve))
        roleOf(session.id, summary.id, name)
      }
    },
    /**
     * Remembers what a reply's request recalled, for the marks in the chat and in full history (this
     * chat's messages: the marks open them here) and the note under the reply (the other chats'
     * messages too, named by their chat), and forgets the passages left out of that request.
     */
    rememberFor(sessionId: string, replySeq: number, messageIds: string[]): void {
      leaveOut.sent(sessionId)
      const replyId = messageIdAt(db, sessionId, replySeq)
      if (!replyId) return
      const own = idsInChat(db, sessionId, messageIds)
      const mine = new Set(own)
      saveReplyRecall(db, {
        replyId,
        sessionId,
        messageIds: own,
        crossChatIds: messageIds.filter((id) => !mine.has(id))
      })
    },
    /** The passages of other chats a plan holds, and those left out, for the context inspector. */
    crossChat: (sessionId: string, plan: RecallPlan) => leaveOut.report(sessionId, plan),
    /** Leaves a passage of another chat out of the chat's next request, or brings it back. */
    leaveOut(sessionId: string, messageId: string, out: boolean): { leftOut: string[] } {
      const leftOut = leaveOut.set(sessionId, messageId, out)
      emit?.('usage.changed', { sessionId })
      return { leftOut }
    },
    replies: (sessionId: string) => listReplyRecalls(db, sessionId)
  }
}
