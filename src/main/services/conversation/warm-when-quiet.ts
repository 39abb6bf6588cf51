import type { UsageService } from './usage-service'
import { warmNewestChat } from './warm-newest-chat'
import { tokenizerWarmSteps } from './warm-tokenizers'
import { warmHttpClient } from '../../providers/warm-http-client'

/** How long nothing must have happened before a warm-up step runs. */
export const QUIET_MS = 500

export interface QuietWarmUp {
  /** A request came in: no step runs until it is answered and the app has been quiet since. */
  begin(): void
  /** …and was answered. The first answer (the first page served) starts the warm-up. */
  end(): void
  /** A page is here without a request answered yet (it opened the event stream): start the warm-up. */
  start(): void
  /** Something else happened (an event went out to the page): the next step waits for quiet again. */
  activity(): void
  /** The app closes: no step runs any more. */
  stop(): void
}

/**
 * Runs the warm-up steps of a long-lived app (desktop, browser mode) after it serves, not before:
 * the address and the window come at once, and the tokenizers (~27 MB and a 100–250 ms block each
 * that cannot be split) and the newest chat load only once the first page has been served, one step
 * at a time, each when no request is in flight and nothing has happened for QUIET_MS. Loading them
 * before serving doubled the time to the address (1 s → 2.1 s) and kept ~55 MB resident in a server
 * nobody had opened yet; on a plain timer a second after opening they stalled whatever came then (a
 * 41 MB import: 109–142 ms). Whatever a request needs before its step has run it loads itself, as
 * without any warm-up: a step only moves work to a quiet moment, it never changes an answer.
 */
export function warmWhenQuiet(
  steps: ReadonlyArray<() => void>,
  options: { warn: (message: string, err: unknown) => void; quietMs?: number }
): QuietWarmUp {
  const quietMs = options.quietMs ?? QUIET_MS
  let inFlight = 0
  let started = false
  let stopped = false
  let next = 0
  let last = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined

  const done = () => stopped || next >= steps.length
  const schedule = () => {
    if (!started || done() || inFlight > 0) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(run, Math.max(0, last + quietMs - performance.now()))
    // A process with nothing else to do (tests, a closing server) ends without waiting for it.
    timer.unref()
  }
  const run = () => {
    timer = undefined
    if (done() || inFlight > 0) return
    if (performance.now() - last < quietMs) return schedule()
    const step = steps[next++]!
    try {
      step()
    } catch (err) {
      // Nothing is lost: whatever failed here loads (or says why it cannot) when it is first needed.
      options.warn('Warming up after opening failed', err)
    }
    // Requests that came during the step are answered before the next one runs.
    last = performance.now()
    schedule()
  }

  return {
    begin() {
      inFlight++
      last = performance.now()
      if (timer) clearTimeout(timer)
      timer = undefined
    },
    end() {
      inFlight = Math.max(0, inFlight - 1)
      last = performance.now()
      started = true
      schedule()
    },
    start() {
      last = performance.now()
      started = true
      schedule()
    },
    activity() {
      last = performance.now()
      schedule()
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = undefined
    }
  }
}

/**
 * The warm-up of an opened app: the newest chat's request (the chat the user most likely returns
 * to, read into the tail cache and the request's code run once), then every tokenizer a model
 * switch needs, then the HTTP client the providers call through (one round trip on the loopback
 * address, warm-http-client.ts). Events sent to the page (a reply
 * streaming, a summary being written) count as activity, so a step never lands in the middle of them.
 */
export function warmAppWhenQuiet(
  app: {
    services: { sessions: Parameters<typeof warmNewestChat>[0]; usage: Pick<UsageService, 'conversation'> }
    /** The app's events (transport/event-hub.ts): each one sent is activity. */
    events: { subscribe(listener: (envelope: unknown) => void): () => void }
  },
  warn: (message: string, err: unknown) => void
): QuietWarmUp {
  const warm = warmWhenQuiet(
    [
      () => warmNewestChat(app.services.sessions, app.services.usage, warn),
      ...tokenizerWarmSteps(),
      () => void warmHttpClient().catch((err: unknown) => warn('Warming up the HTTP client failed', err))
    ],
    { warn }
  )
  const unsubscribe = app.events.subscribe(() => warm.activity())
  return {
    ...warm,
    stop() {
      unsubscribe()
      warm.stop()
    }
  }
}

/** The same router (transport/router.ts), each call counted as a request for the warm-up (the desktop app's IPC). */
export function routerWatchedBy<Answer>(
  router: { call(route: string, input: unknown): Promise<Answer> },
  warm: Pick<QuietWarmUp, 'begin' | 'end'>
): { call(route: string, input: unknown): Promise<Answer> } {
  return {
    async call(route, input) {
      warm.begin()
      try {
        return await router.call(route, input)
      } finally {
        warm.end()
      }
    }
  }
}
