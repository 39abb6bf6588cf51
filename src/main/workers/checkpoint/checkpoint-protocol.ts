import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { NewMessage } from '../../db/repositories/messages/messages-repo'

/** What the app asks the checkpoint thread: a checkpoint, a message written, or to close. */
export type ThreadRequest = 'checkpoint' | 'close' | { append: NewMessage }

/** What the thread answers: a checkpoint's outcome, or the message written (without its parts) or why not. */
export type ThreadAnswer =
  | 'done'
  | `failed: ${string}`
  | { appended: string; message: Omit<ChatMessage, 'parts'> }
  | { appended: string; error: string }
