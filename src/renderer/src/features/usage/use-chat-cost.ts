import { useEffect } from 'react'
import type { ChatCost, ContextUsage } from '../../../../shared/contract'
import { useCostStore } from '../../stores/cost-store'
import { useUsageStore } from '../../stores/usage-store'

/**
 * What changes when a request was made or the chat's history moved (a reply completed, a summary
 * went in, the model changed), and not while typing: the draft and what it would recall are left out.
 */
function historyKey(usage: ContextUsage | undefined): string {
  if (!usage) return ''
  const { breakdown } = usage
  return [
    usage.provider,
    usage.modelId,
    usage.messages,
    usage.summarizedMessages,
    breakdown.history,
    breakdown.summary,
    breakdown.attachments ?? 0
  ].join(':')
}

/**
 * The chat's cost while `active` (the popover or the inspector is open): fetched when it opens,
 * then again whenever the chat's counts are refreshed by a completed reply or `usage.changed`.
 */
export function useChatCost(sessionId: string, active: boolean): ChatCost | undefined {
  const key = useUsageStore((s) => historyKey(s.usage[sessionId]))
  useEffect(() => {
    if (active) void useCostStore.getState().load(sessionId)
  }, [sessionId, active, key])
  return useCostStore((s) => s.cost[sessionId])
}
