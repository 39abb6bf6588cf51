import { pinSharePercent } from '../../engine/pinned'
import type { Conversation } from './conversation'

/**
 * What the chat's pins take of its usable budget, in the provider's tokens (the same conversion as
 * every number shown): the meter's and inspector's line, and what a new pin is checked against.
 */
export function pinsReport(conv: Conversation, limit: number) {
  if (conv.pinned.messages.length === 0) return undefined
  return {
    count: conv.pinned.messages.length,
    percent: pinSharePercent(conv.cost(conv.pinnedTokens), conv.budget.usable),
    limit
  }
}
