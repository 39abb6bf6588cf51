import { pinSharePercent } from '../../engine/pinned'
import type { Conversation } from './conversation'
import { buildModelRequest, type ModelRequest } from './request-builder'

/**
 * What the chat's pins take of its usable budget, in the provider's tokens (the same conversion as
 * every number shown): the meter's and inspector's line, and what a new pin is checked against.
 */
export function pinsReport(conv: Conversation, limit: number, built?: ModelRequest) {
  if (conv.pinned.messages.length === 0) return undefined
  const cut = pinsCutTokens(conv, built)
  return {
    count: conv.pinned.messages.length,
    percent: pinSharePercent(conv.cost(conv.pinnedTokens), conv.budget.usable),
    limit,
    ...(cut > 0 ? { cutTokens: cut } : {})
  }
}

/**
 * What the next request leaves out of the pins' middle, in the provider's tokens: only when the
 * parts no compression can shrink (system prompt, summary, pins, the pending message, framing) pass
 * the usable budget does the request cut them, so only then is it built (or the one built is read).
 */
function pinsCutTokens(conv: Conversation, built?: ModelRequest): number {
  const fixed =
    conv.systemTokens + conv.summaryTokens + conv.pinnedTokens + conv.overheadTokens + (conv.pending?.tokens ?? 0)
  if (fixed <= conv.budget.countedUsable) return 0
  const { context } = built ?? buildModelRequest(conv)
  const pinnedIds = new Set(conv.pinned.inHistory.map((p) => p.id))
  const sent = context.messages.reduce(
    (sum, m) => (m.kind === 'pinned' || (m.kind === 'message' && pinnedIds.has(m.sourceId!)) ? sum + m.tokens : sum),
    0
  )
  return sent < conv.pinnedTokens ? conv.cost(conv.pinnedTokens - sent) : 0
}
