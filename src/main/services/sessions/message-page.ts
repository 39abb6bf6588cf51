import { AppError } from '../../../shared/app-error'
import { MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX, type MessageCursor } from '../../../shared/contract/message-page'
import type { Db } from '../../db/client'
import {
  readMessagePage,
  seqOfMessage,
  type MessagePage,
  type PageCursor
} from '../../db/repositories/messages/message-page-repo'

/**
 * A page of a chat's conversation for a cursor of the contract: the newest messages, those before
 * or after a seq, or those around a message. A message id that is not in the chat is `not_found`.
 */
export function readPage(db: Db, sessionId: string, cursor: MessageCursor = {}): MessagePage {
  const limit = Math.min(Math.max(1, cursor.limit ?? MESSAGE_PAGE_DEFAULT), MESSAGE_PAGE_MAX)
  return readMessagePage(db, sessionId, toPageCursor(db, sessionId, cursor), limit)
}

function toPageCursor(db: Db, sessionId: string, cursor: MessageCursor): PageCursor {
  if (cursor.before !== undefined) return { before: cursor.before }
  if (cursor.after !== undefined) return { after: cursor.after }
  if (cursor.around === undefined) return {}
  if (typeof cursor.around === 'number') return { aroundSeq: cursor.around }
  const seq = seqOfMessage(db, sessionId, cursor.around)
  if (seq === undefined) throw new AppError('not_found', 'That message is not in this chat any more.')
  return { aroundSeq: seq }
}
