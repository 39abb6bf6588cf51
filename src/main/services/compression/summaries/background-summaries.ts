import type { Snapshot } from '../../../../shared/domain/snapshot'
import { AppError } from '../../../../shared/app-error'
import type { RunRequest, RunResult } from '../compression-run'
import type { Logger } from '../../service-deps'

export interface BackgroundSummariesDeps {
  run(request: RunRequest): Promise<RunResult>
  /** Aborts the chat's running compression (only ever this module's, see `cancel`). */
  abort(sessionId: string): void
  /** The model summary that replaces `quick`; undefined when it is no longer wanted. */
  build(sessionId: string, quick: Snapshot): Promise<RunRequest | undefined>
  log: Logger
  /** Waits before each retry of a failed model summary (FR-5.1.1); its length is the number of retries. */
  retryDelaysMs?: readonly number[]
  setTimer?: (fn: () => void, ms: number) => { cancel(): void }
}

const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 30_000]

const defaultTimer = (fn: () => void, ms: number) => {
  const handle = setTimeout(fn, ms)
  handle.unref?.()
  return { cancel: () => clearTimeout(handle) }
}

/**
 * Model summaries written after the send that needed them: the send went out with a quick offline
 * summary, and the model's replaces it when it arrives (the commit checks that the quick one is
 * still the active summary, so an undo or a newer compression wins). A failure keeps the quick one
 * and retries with backoff; another compression of the chat, Cancel or closing discards it.
 */
export function createBackgroundSummaries(deps: BackgroundSummariesDeps) {
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const setTimer = deps.setTimer ?? defaultTimer
  interface Job {
    quick: Snapshot
    running?: Promise<void>
    timer?: { cancel(): void }
    cancelled: boolean
  }
  const jobs = new Map<string, Job>()
  /** Each chat's latest model-summary request until it settles, cancelled or not. */
  const inflight = new Map<string, Promise<void>>()

  function attempt(sessionId: string, job: Job, tries: number): void {
    job.timer = undefined
    if (job.cancelled) return
    job.running = deps
      .build(sessionId, job.quick)
      .then((request) => {
        // No longer wanted, or cancelled while its messages were read.
        if (!request || job.cancelled) return
        return deps.run(request)
      })
      .then(() => {
        job.running = undefined
        if (jobs.get(sessionId) === job) jobs.delete(sessionId)
      })
      .catch((err: unknown) => {
        job.running = undefined
        const code = err instanceof AppError ? err.code : 'internal'
        const final = job.cancelled || code === 'cancelled' || code === 'conflict' || tries >= delays.length
        if (final) {
          if (!job.cancelled && code !== 'cancelled' && code !== 'conflict')
            deps.log.warn(
              'The model summary could not be written; the quick one stays',
              err instanceof Error ? err.message : err
            )
          if (jobs.get(sessionId) === job) jobs.delete(sessionId)
          return
        }
        job.timer = setTimer(() => attempt(sessionId, job, tries + 1), delays[tries]!)
      })
    const running = job.running
    inflight.set(sessionId, running)
    void running.finally(() => {
      if (inflight.get(sessionId) === running) inflight.delete(sessionId)
    })
  }

  return {
    /** Writes the model summary for the span `quick` covers, in the background (after `delayMs`). */
    schedule(sessionId: string, quick: Snapshot, delayMs = 0): void {
      this.cancel(sessionId)
      const job: Job = { quick, cancelled: false }
      jobs.set(sessionId, job)
      if (delayMs > 0) job.timer = setTimer(() => attempt(sessionId, job, 0), delayMs)
      else attempt(sessionId, job, 0)
    },

    /** Discards the chat's pending model summary (a running one is aborted and writes nothing). */
    cancel(sessionId: string): void {
      const job = jobs.get(sessionId)
      if (!job) return
      job.cancelled = true
      job.timer?.cancel()
      jobs.delete(sessionId)
      if (job.running) deps.abort(sessionId)
    },

    /** The quick summary whose replacement is being written or waits for a retry. */
    pendingFor: (sessionId: string): Snapshot | undefined => jobs.get(sessionId)?.quick,

    /** Waits for the chat's model summary to land or give up (tests, replay). */
    async settled(sessionId: string): Promise<void> {
      for (;;) {
        const running = inflight.get(sessionId)
        if (running) await running
        else if (jobs.has(sessionId)) await new Promise((resolve) => setTimeout(resolve, 10))
        else return
      }
    },

    async close(): Promise<void> {
      for (const sessionId of [...jobs.keys()]) this.cancel(sessionId)
      await Promise.allSettled([...inflight.values()])
    }
  }
}
