import type { ChatMessage } from '../../shared/domain/chat-message'
import type { EngineMessage } from '../engine/types'
import type { Conversation } from './usage-service'

const DRAFT_ID = 'draft'

/**
 * The conversation as it would be if `text` were sent now: the text becomes the pending user
 * message, counted like a stored one, and nothing is written.
 */
export function withDraft(conv: Conversation, text: string): Conversation {
  const last = conv.history.at(-1)
  const seq = (last?.seq ?? conv.summary?.cutoffSeq ?? 0) + 1
  const tokens = conv.countText(text, 'user')
  const draft: EngineMessage = { id: DRAFT_ID, seq, role: 'user', text, tokens, createdAt: last?.createdAt ?? 0 }
  const message: ChatMessage = {
    id: DRAFT_ID,
    sessionId: conv.session.id,
    seq,
    role: 'user',
    parts: [{ type: 'text', text }],
    status: 'complete',
    error: null,
    tokenCount: tokens,
    tokenCounter: null,
    inputTokens: null,
    outputTokens: null,
    createdAt: draft.createdAt
  }
  return {
    ...conv,
    history: [...conv.history, draft],
    loadMessages: (ids) => {
      const found = conv.loadMessages(ids.filter((id) => id !== DRAFT_ID))
      if (ids.includes(DRAFT_ID)) found.set(DRAFT_ID, message)
      return found
    }
  }
}
