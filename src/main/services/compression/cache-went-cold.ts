import type { Db } from '../../db/client'
import { lastRequestAt } from '../../db/repositories/usage-totals-repo'
import { cacheLifetimeMs } from '../../models/cache-lifetime'
import type { Conversation } from '../conversation/conversation'

/**
 * Whether the chat's last request is older than its provider keeps a prompt cache: the next request
 * is then cold whatever it carries, so swapping a summary in costs nothing more (issue 34).
 */
export function cacheWentCold(db: Db, conv: Conversation, beforeSeq: number, now: number): boolean {
  const last = lastRequestAt(db, conv.session.id, beforeSeq)
  return last !== undefined && now - last > cacheLifetimeMs(conv.spec.provider, conv.spec.extendedCacheRetention)
}
