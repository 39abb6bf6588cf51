import type { ChatMessage } from '../../../../shared/domain/chat-message'
import type { Db } from '../../client'
import { prepared } from './messages-repo'

/** A message at the start of a chat, with the beginning of its text. */
export interface OpeningMessage {
  seq: number
  role: ChatMessage['role']
  status: ChatMessage['status']
  /** The first characters of its text parts, joined as messageText joins them. */
  excerpt: string
}

const OPENING_SQL = `SELECT seq, role, status,
    substr((SELECT coalesce(group_concat(json_extract(value, '$.text'), char(10) || char(10)), '')
       FROM json_each(parts) WHERE json_extract(value, '$.type') = 'text'), 1, ?) AS excerpt
  FROM chat_messages WHERE session_id = ? AND seq < ? AND hidden_in IS NULL ORDER BY seq`

/**
 * The chat's messages on its path before `beforeSeq`, each with the first `chars` characters of its
 * text, cut inside SQLite: a first message of a million characters is not parsed on the event loop
 * to read its first line (the title after the first reply read it whole, 10-17 ms).
 */
export function openingMessages(db: Db, sessionId: string, beforeSeq: number, chars: number): OpeningMessage[] {
  return prepared<OpeningMessage>(db, OPENING_SQL).all(chars, sessionId, beforeSeq)
}
