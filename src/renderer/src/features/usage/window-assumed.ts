import type { ContextUsage } from '../../../../shared/contract'
import type { Session } from '../../../../shared/domain/session'

/**
 * Whether the chat's budget rests on an assumed window: nobody told Distill the model's (a local
 * server that did not say), and the chat does not set its own in Chat settings.
 */
export function windowAssumed(
  usage: Pick<ContextUsage, 'modelKnown'> | undefined,
  session: Pick<Session, 'contextWindow'> | null | undefined
): boolean {
  if (!usage || usage.modelKnown) return false
  return (session?.contextWindow ?? null) === null
}
