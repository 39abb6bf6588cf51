import type { Services } from '../services'

/**
 * Lets a summary being written for the chat finish before an edit or a regenerate decides what
 * may change: a send often starts one right after its reply, and refusing the edit that follows
 * ("a summary is being written") for the second it takes would be a needless error. A long
 * model summary is not waited out: after `waitMs` the service says it is busy, as before.
 */
export async function summarySettled(services: Services, sessionId: string, waitMs = 3000): Promise<void> {
  if (!services.compression.active(sessionId).running) return
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([
    services.compression.idle(sessionId).catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))
  ])
  clearTimeout(timer)
}
