import type { ChatCost, TokenUsage } from '../../../shared/contract'
import type { Db } from '../../db/client'
import { lastReplyUsage, replyUsageTotals, summaryUsageTotals } from '../../db/repositories/usage-totals-repo'
import type { ModelSpec } from '../../models/catalog'
import { usageCostUsd } from '../../models/usage-cost'

/**
 * What a chat's requests took as the providers reported them (input read from and written to the
 * prompt cache, uncached, output), priced at the chat model's catalog prices, with the model
 * summaries written for it. Read when asked (the meter's details), not on every keystroke.
 */
export function chatCost(db: Db, sessionId: string, spec: ModelSpec): ChatCost {
  const priced = (u: Omit<TokenUsage, 'costUsd'>): TokenUsage => ({ ...u, costUsd: usageCostUsd(spec, u) })
  const replies = replyUsageTotals(db, sessionId)
  const last = lastReplyUsage(db, sessionId)
  const summaries = summaryUsageTotals(db, sessionId)
  const withoutCache = usageCostUsd(spec, { inputTokens: replies.inputTokens, outputTokens: replies.outputTokens })
  return {
    sessionId,
    modelLabel: spec.label,
    lastReply: last
      ? priced({
          requests: 1,
          inputTokens: last.inputTokens,
          cacheReadTokens: last.cacheReadTokens ?? 0,
          cacheWriteTokens: last.cacheWriteTokens ?? 0,
          outputTokens: last.outputTokens ?? 0
        })
      : null,
    replies: priced({
      requests: replies.requests,
      inputTokens: replies.inputTokens,
      cacheReadTokens: replies.cacheReadTokens,
      cacheWriteTokens: replies.cacheWriteTokens,
      outputTokens: replies.outputTokens
    }),
    summaries: priced(summaries),
    withoutCacheUsd: withoutCache,
    cacheReported: replies.cacheReported > 0
  }
}
