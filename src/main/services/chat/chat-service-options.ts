import type { ChatAttachments } from '../../attachments/chat-attachments'
import type { RetryPolicy } from '../../providers/stream-reply'
import type { SessionsService } from '../sessions/sessions-service'
import type { ProvidersService } from '../settings/providers-service'
import type { SettingsService } from '../settings/settings-service'
import type { PreparedRequest } from '../next-request/prepared-request'
import type { AfterReply } from './after-reply'
import type { NewMessage } from '../../db/repositories/messages/messages-repo'
import type { ChatMessage } from '../../../shared/domain/chat-message'

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
  /** Compresses if needed and assembles the request for the reply that will get this seq (next-request/prepared-request.ts). */
  prepareRequest: (sessionId: string, replySeq: number) => Promise<PreparedRequest>
  /** What happens around a reply: counting, calibration, titles, compression after it (after-reply.ts). */
  reply?: AfterReply
  /** Files in messages: checked when sent, read into the request when it goes out. */
  attachments?: ChatAttachments
  /**
   * Writes a long message on the database's thread (workers/checkpoint): in one statement on the
   * event loop, a message of a million characters held it 20-45 ms. Absent: written here.
   */
  appendOnThread?: (row: NewMessage) => Promise<ChatMessage>
}
