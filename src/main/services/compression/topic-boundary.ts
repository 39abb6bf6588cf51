import { insertSummary, topicBoundaries } from '../../db/repositories/snapshots-repo'
import type { ServiceDeps } from '../service-deps'
import { boundaryContent } from './tier-snapshots'

/**
 * Marks `lastId` (the chat's newest message) as the end of a topic: the tiered strategy starts a
 * new one after it. False when there is no message or it is marked already.
 */
export function markTopicEnd(
  deps: Pick<ServiceDeps, 'db' | 'ids' | 'clock' | 'emit'>,
  sessionId: string,
  lastId: string | undefined
): { marked: boolean } {
  const { db, ids, clock, emit } = deps
  if (!lastId || topicBoundaries(db, sessionId).has(lastId)) return { marked: false }
  insertSummary(db, {
    id: ids(),
    kind: 'topic',
    sessionId,
    content: boundaryContent(lastId, new Date(clock.now()).toISOString()),
    messageCutoffId: lastId,
    tokenCount: 0,
    createdAt: clock.now()
  })
  emit('compression.changed', { sessionId })
  return { marked: true }
}
