import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { EngineMessage } from '../../engine/types'
import type { Conversation } from './conversation'

const DRAFT_ID = 'draft'

/**
 * The conversation as it would be if `text` were sent now: the text becomes the pending user
 * message, counted like a stored one, and nothing is written.
 */
export function withDraft(conv: Conversation, text: string, counted?: number): Conversation {
  const last = conv.newest
  const seq = (last?.seq ?? conv.summary?.cutoffSeq ?? 0) + 1
  // `counted`: the meter's count of a long draft while it is typed (a quick estimate past a size).
  const tokens = counted ?? conv.countText(text, 'user')
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
  // Delegates rather than spreads: spreading would read the whole history through its getter.
  return {
    session: conv.session,
    spec: conv.spec,
    budget: conv.budget,
    thresholdSetting: conv.thresholdSetting,
    exact: conv.exact,
    counter: conv.counter,
    summary: conv.summary,
    summaryTokens: conv.summaryTokens,
    pinned: conv.pinned,
    pinnedTokens: conv.pinnedTokens,
    systemTokens: conv.systemTokens,
    overheadTokens: conv.overheadTokens,
    historyCount: conv.historyCount + 1,
    historyTokens: conv.historyTokens + tokens,
    newest: draft,
    pending: draft,
    get history() {
      return [...conv.history, draft]
    },
    loadHistory: async () => [...(await conv.loadHistory()), draft],
    requestTail() {
      // An unanswered message before the draft becomes part of the tail the draft follows.
      const earlier = conv.pending
      const tail = conv.requestTail()
      return earlier ? [...tail, earlier] : tail
    },
    total: (extraTokens = 0) => conv.total(tokens + extraTokens),
    contextTokens: (extraTokens = 0) => conv.contextTokens(tokens + extraTokens),
    totalAfter: (covered, summaryTokens, cutoffId) => conv.totalAfter(covered, summaryTokens, cutoffId) + tokens,
    cost: (counted) => conv.cost(counted),
    // The draft is the pending input: an unanswered message before it becomes history.
    compressibleTokens: () => conv.summaryTokens + conv.historyTokens - (conv.pinnedTokens - conv.pinned.blockTokens),
    fixedTokens: () => conv.systemTokens + tokens + conv.overheadTokens + conv.pinnedTokens,
    countText: (t, role) => conv.countText(t, role),
    summaryTokensOf: (t) => conv.summaryTokensOf(t),
    loadMessages: (ids) => {
      const found = conv.loadMessages(ids.filter((id) => id !== DRAFT_ID))
      if (ids.includes(DRAFT_ID)) found.set(DRAFT_ID, message)
      return found
    }
  }
}
