import type { ChatCost, TokenUsage } from '../../../../shared/contract'
import { formatCost } from '../../lib/format-cost'
import { formatCount } from '../../lib/format-tokens'

/** A price as the details say it: "≈ $0.0041", "≈ $1.20", "under $0.0001". */
export function approxUsd(usd: number): string {
  const text = formatCost(usd)
  return text.startsWith('less than ') ? `under ${text.slice('less than '.length)}` : `≈ ${text}`
}

/** Input the provider billed at its full price: neither read from its cache nor written to it. */
export function uncachedTokens(usage: TokenUsage): number {
  return Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens)
}

/** The replies and the model summaries together: what the chat took (dollars only when both are priced). */
export function chatTotal(cost: ChatCost): TokenUsage {
  const { replies, summaries } = cost
  const summaryPrice = summaries.requests === 0 ? 0 : summaries.costUsd
  return {
    requests: replies.requests + summaries.requests,
    inputTokens: replies.inputTokens + summaries.inputTokens,
    cacheReadTokens: replies.cacheReadTokens + summaries.cacheReadTokens,
    cacheWriteTokens: replies.cacheWriteTokens + summaries.cacheWriteTokens,
    outputTokens: replies.outputTokens + summaries.outputTokens,
    costUsd: replies.costUsd === null || summaryPrice === null ? null : replies.costUsd + summaryPrice
  }
}

/** What the cache saved on the replies, in dollars: null unless both prices are known and it saved something. */
export function cacheSavedUsd(cost: ChatCost): number | null {
  if (cost.withoutCacheUsd === null || cost.replies.costUsd === null) return null
  const saved = cost.withoutCacheUsd - cost.replies.costUsd
  return saved > 0 ? saved : null
}

function tokens(n: number): string {
  return `${formatCount(n)} input ${n === 1 ? 'token' : 'tokens'}`
}

/**
 * The popover's one line about the last reply: "Last reply: 11,204 of 11,930 input tokens from the
 * cache · ≈ $0.0041". Null until a reply has reported its usage.
 */
export function lastReplyLine(cost: ChatCost | undefined): string | null {
  const last = cost?.lastReply
  if (!cost || !last) return null
  const price = last.costUsd === null ? '' : ` · ${approxUsd(last.costUsd)}`
  const total = last.inputTokens
  if (last.cacheReadTokens > 0)
    return `Last reply: ${formatCount(last.cacheReadTokens)} of ${tokens(total)} from the cache${price}`
  if (!cost.cacheReported) return `Last reply: ${tokens(total)}; the provider did not report its cache${price}`
  if (last.cacheWriteTokens > 0)
    return `Last reply: ${tokens(total)}, none from the cache (${formatCount(last.cacheWriteTokens)} written to it)${price}`
  return `Last reply: ${tokens(total)}, none from the cache${price}`
}
