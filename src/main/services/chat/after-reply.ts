import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import type { ContextOverflow } from '../../providers/context-overflow'
import type { CompressionService } from '../compression/compression-service'
import type { UsageService } from '../conversation/usage-service'
import type { TitleService } from './title-service'

export type AfterReply = ReturnType<typeof createAfterReply>

/**
 * What a chat does around a reply, besides streaming it (the after-reply policy, in one place): a
 * written message is counted off the request path; a reply's reported usage calibrates the
 * estimate; a "too long" refusal teaches the chat its window; a finished reply may name a new chat
 * and summarize right away when it took the chat past its threshold (or else prepare a summary
 * ahead); and what the active summary covers makes the messages it stands for read-only.
 */
export function createAfterReply(deps: {
  usage: UsageService
  titles: TitleService
  compression: CompressionService
  /** A read-only process never compresses (the database's owner does). */
  readOnly?: boolean
}) {
  const { usage, titles, compression } = deps
  return {
    /** What a user's message about to be written counts, to write it with its count. */
    countOf: (parts: ChatMessage['parts'], session: Session) => usage.countOf(parts, session),
    /** A message was written: its tokens are counted and stored. */
    messageWritten: (message: ChatMessage, session: Session): Promise<void> => usage.messageWritten(message, session),
    /** A reply finished with the provider's usage, for the request of `sentTokens` counted tokens. */
    reported: (reply: ChatMessage, session: Session, sentTokens?: number): void =>
      usage.replyFinished(reply, session, sentTokens),
    /** The provider counted the request past its window: true when a request built again can fit. */
    refused: (session: Session, sentTokens: number, overflow: ContextOverflow): boolean =>
      usage.requestRefused(session, sentTokens, overflow),
    /** A reply completed. */
    completed(reply: ChatMessage, session: Session): void {
      void titles.afterReply(reply, session)
      if (!deps.readOnly) compression.afterReply(session.id)
    },
    /** What the active summary covers and whether one is being written. */
    summaryState(sessionId: string): { cutoffSeq: number; running: boolean } {
      const { summary, running } = compression.active(sessionId)
      return { cutoffSeq: summary?.cutoffSeq ?? 0, running }
    }
  }
}
