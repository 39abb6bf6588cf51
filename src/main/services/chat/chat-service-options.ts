import type { ChatAttachments } from '../../attachments/chat-attachments'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import type { ContextOverflow } from '../../providers/context-overflow'
import type { RetryPolicy } from '../../providers/stream-reply'
import type { SessionsService } from '../sessions/sessions-service'
import type { ProvidersService } from '../settings/providers-service'
import type { SettingsService } from '../settings/settings-service'
import type { PreparedRequest } from '../next-request/prepared-request'

/** What the chat service is built with (app.ts), beside the deps every service gets. */
export interface ChatServiceOptions {
  sessions: SessionsService
  providers: ProvidersService
  settings: SettingsService
  /** Abort a reply when the provider sends nothing for this long. */
  stallMs?: number
  /** How long to wait for the first chunk (default: the firstChunkTimeoutSeconds setting). */
  firstChunkMs?: number
  retry?: RetryPolicy
  /** False in a read-only process: replies left streaming belong to the database's owner. */
  repairInterrupted?: boolean
  /** Called after a message is written, to count its tokens off the request path. */
  onMessageWritten?: (message: ChatMessage, session: Session) => Promise<void> | void
  /** Compresses if needed and assembles the request for the reply that will get this seq (next-request/prepared-request.ts). */
  prepareRequest: (sessionId: string, replySeq: number) => Promise<PreparedRequest>
  /** Called when a reply finishes with provider-reported usage (and the counted tokens of the request it answered). */
  onUsage?: (message: ChatMessage, session: Session, sentTokens?: number) => void
  /**
   * Called when the provider refused a request as longer than the model's window (with the counted
   * tokens of that request and what the provider said); true when a request built again can fit.
   */
  onRefused?: (session: Session, sentTokens: number, overflow: ContextOverflow) => boolean
  /** Called when a reply completes (a chat's first one gets a generated title). */
  onReplyComplete?: (reply: ChatMessage, session: Session) => void
  /** What the active summary covers and whether one is being written: summarized messages are read-only. */
  summaryState?: (sessionId: string) => { cutoffSeq: number; running: boolean }
  /** Files in messages: checked when sent, read into the request when it goes out. */
  attachments?: ChatAttachments
}
