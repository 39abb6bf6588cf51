import type { ContextUsage } from '../../../../shared/contract'
import { formatCost } from '../../lib/format-cost'
import { formatCount } from '../../lib/format-tokens'

/** What the meter and the inspector say about the next summary while it is written ahead. */
export function preparedNote(usage: Pick<ContextUsage, 'preparedSummary'>): string | undefined {
  const prepared = usage.preparedSummary
  if (!prepared) return undefined
  const messages = `${formatCount(prepared.messages)} ${prepared.messages === 1 ? 'message' : 'messages'}`
  if (prepared.state === 'writing')
    return `Writing the next summary ahead (${messages}), so reaching the threshold will not make you wait.`
  const cost = prepared.costUsd != null ? ` (cost about ${formatCost(prepared.costUsd)})` : ''
  return `Next summary ready: ${messages} in ${formatCount(prepared.tokens ?? 0)} tokens${cost}. It goes in as soon as the context passes the threshold; messages after it stay verbatim.`
}
