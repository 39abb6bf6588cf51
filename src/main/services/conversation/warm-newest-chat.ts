import { buildModelRequest } from './request-builder'
import type { UsageService } from './usage-service'

/**
 * Builds the newest chat's request once after the app opens (warm-when-quiet.ts): the chat the user
 * returns to is read into the tail cache, and the request's code runs once (cold, the first request of
 * a process took ~15 ms at 100,000 messages against ~5 ms after). Nothing is stored or sent.
 */
export function warmNewestChat(
  sessions: { page(options: { limit: number }): { sessions: ReadonlyArray<{ id: string }> } },
  usage: Pick<UsageService, 'conversation'>,
  warn: (message: string, err: unknown) => void
): void {
  try {
    const newest = sessions.page({ limit: 1 }).sessions[0]
    if (newest) buildModelRequest(usage.conversation(newest.id))
  } catch (err) {
    // A chat that cannot be read now says so when it is opened; the app opens all the same.
    warn('Preparing the newest chat at open failed', err)
  }
}
