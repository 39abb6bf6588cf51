import { Worker } from 'node:worker_threads'
import type { EngineRole } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import type { StrategyOutcome } from '../../engine/strategies/strategy-outcome'
import type { EngineMessage } from '../../engine/types'
import { runExtractiveJob, type ExtractiveJob } from './extractive-job'
import {
  EXTRACTIVE_WORKER,
  type ExtractiveOutcome,
  type ExtractiveWorkerData,
  type ThreadJob,
  type ThreadResult
} from './thread-protocol'
import { runRecountJob, type RecountJob, type Recounted } from './recount-job'
import { storedPartsReader } from '../../db/repositories/messages/message-parts-repo'
import { runStrategyJob, type StrategyJob } from './strategy-job'
import { runDetailsJob, type DetailsJob } from './details-job'
import { workerSource } from '../worker-source'
import { answerCount, countCells, isCountRequest, type CountRequest } from './main-thread-counter'
import { answerCountBatch, isCountBatch, summaryCounter, type CountBatch } from './job-texts'

export type ExtractiveThread = ReturnType<typeof createExtractiveThread>

/** What to summarize: stored messages (their text is read only where it is needed) and the target. */
export interface ExtractiveInput {
  spec: ModelSpec
  request: {
    previousSummary?: string
    messages: ReadonlyArray<{ id: string; role: EngineRole; readonly text: string; createdAt?: number }>
    targetTokens: number
    focus?: string
  }
}

/** A model summary and the span it summarized (text read where it is needed). */
export interface DetailsInput extends Omit<DetailsJob, 'messages'> {
  messages: ReadonlyArray<{ id: string; role: EngineRole; readonly text: string }>
}

/** A strategy over a whole history: stored messages (text read where it is needed) and its room. */
export interface StrategyInput extends Omit<StrategyJob, 'messages'> {
  messages: readonly EngineMessage[]
}

/** The strategy job with each message's text, for a run on this thread. */
function strategyWithTexts(input: StrategyInput): StrategyJob {
  return { ...input, messages: input.messages.map((m) => ({ ...headOf(m), text: m.text })) }
}

/** A message without its text (a lazy getter is not cloned: the fields are copied one by one). */
function headOf(m: EngineMessage): Omit<EngineMessage, 'text'> {
  return {
    id: m.id,
    seq: m.seq,
    role: m.role,
    tokens: m.tokens,
    createdAt: m.createdAt,
    ...(m.toolCallIds ? { toolCallIds: [...m.toolCallIds] } : {}),
    ...(m.toolResultIds ? { toolResultIds: [...m.toolResultIds] } : {})
  }
}

/** The job with each message's text, for a run on this thread. */
function withTexts(input: ExtractiveInput): ExtractiveJob {
  return {
    ...input,
    request: {
      ...input.request,
      messages: input.request.messages.map((m) => ({ role: m.role, createdAt: m.createdAt, text: m.text }))
    }
  }
}

/**
 * The old generation a summary thread may grow to. V8 collects late: with no limit a 10,000-message
 * summary left ~45 MB of garbage in the thread and took the app past 250 MB, against ~20 MB live. A job
 * that needs more (a strategy over a long history, one huge message) runs out of room, and it and every
 * later job run on a thread without the limit (OUT_OF_ROOM).
 */
const THREAD_HEAP_MB = 32

/** How long a thread with no job waits for the next before it ends. */
const IDLE_MS = 20_000

/** The thread a job waited on ended before answering (another job on it was cancelled). */
class ThreadEnded extends Error {
  constructor() {
    super('The summary thread ended before this job was done.')
  }
}

const OUT_OF_ROOM = 'ERR_WORKER_OUT_OF_MEMORY'

class Aborted extends Error {
  constructor() {
    super('The summary was cancelled.')
    this.name = 'AbortError'
  }
}

/**
 * Extractive summaries on a worker thread, so a 10,000-message span (about a second of tokenizing and
 * scoring) never stalls the main process: replies keep streaming and requests keep being answered
 * while it runs. One thread, started on first use and unref'd; a cancelled job ends the thread (it is
 * busy with that job) and the next job starts a fresh one. Where no thread can run, or it fails, the
 * job runs inline: slower to the event loop, same summary.
 */
export function createExtractiveThread(options: {
  warn(message: string): void
  /** A database file: the thread reads the messages' text itself, so the main thread never loads it. */
  dbFile?: string
  /** How long an idle thread waits for a job before it ends (IDLE_MS). */
  idleMs?: number
  /** The thread's old generation until a job runs out of it (THREAD_HEAP_MB). */
  heapMb?: number
}) {
  const dbFile = options.dbFile && options.dbFile !== ':memory:' ? options.dbFile : undefined
  let worker: Worker | undefined
  let unavailable = false
  /** A job ran out of room under THREAD_HEAP_MB, or a strategy ran: threads start without the limit from then on. */
  let roomy = false
  let nextId = 1
  const pending = new Map<
    number,
    {
      thread: Worker
      resolve(result: ThreadResult): void
      reject(err: Error): void
      /** How the job counts a text, for the thread's questions (summaries and Details checks). */
      count?: (text: string) => number
      onProgress?: (done: number, total: number) => void
    }
  >()

  const endJobsOf = (w: Worker) => {
    for (const [id, job] of pending)
      if (job.thread === w) {
        pending.delete(id)
        job.reject(new ThreadEnded())
      }
  }
  const failAll = (err: Error) => {
    for (const job of pending.values()) job.reject(err)
    pending.clear()
  }

  // A thread holds its own heap and database connection (and a strategy's tokenizer tables) and
  // summaries come minutes apart: it ends once idle and the next job starts a fresh one (~50 ms).
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  function endWhenIdle(w: Worker): void {
    clearTimeout(idleTimer)
    if (pending.size > 0) return
    w.unref()
    idleTimer = setTimeout(() => {
      if (worker !== w || pending.size > 0) return
      worker = undefined
      void w.terminate()
    }, options.idleMs ?? IDLE_MS)
    idleTimer.unref()
  }

  function start(): Worker | undefined {
    clearTimeout(idleTimer)
    if (worker || unavailable) return worker
    const source = workerSource(__dirname, 'extractive-worker')
    if (!source) {
      unavailable = true
      options.warn('The summary worker was not found beside the app; extractive summaries run on the main thread.')
      return undefined
    }
    try {
      const cells = countCells()
      const w = new Worker(source.code, {
        eval: source.eval,
        workerData: { role: EXTRACTIVE_WORKER, dbFile, countCells: cells } satisfies ExtractiveWorkerData,
        // A young generation as large as the main thread's kept ~30 MB more resident for no speed. A
        // roomy thread (a strategy, a recount: millions of tokens) collects less with 32 MB: a 100,000-
        // message recount spent ~10% of its time collecting at 8 MB, ~6% at 32.
        resourceLimits: {
          maxYoungGenerationSizeMb: roomy ? 32 : 8,
          ...(roomy ? {} : { maxOldGenerationSizeMb: options.heapMb ?? THREAD_HEAP_MB })
        }
      })
      w.unref()
      w.on('message', (outcome: ExtractiveOutcome | CountRequest | CountBatch) => {
        if (isCountRequest(outcome)) return answerCount(cells, pending.get(outcome.id)?.count, outcome.count)
        if (isCountBatch(outcome)) return answerCountBatch(outcome, pending.get(outcome.id)?.count)
        const job = pending.get(outcome.id)
        if ('progress' in outcome) return job?.onProgress?.(outcome.progress.done, outcome.progress.total)
        pending.delete(outcome.id)
        if (!job) return
        if ('error' in outcome) job.reject(new Error(outcome.error))
        else job.resolve(outcome.result)
        endWhenIdle(w)
      })
      w.on('error', (err) => {
        if (worker === w) worker = undefined
        if ((err as { code?: string }).code !== OUT_OF_ROOM) return failAll(err)
        // Its jobs run again (onThreadOrHere) on a thread that has the room.
        roomy = true
        endJobsOf(w)
      })
      w.on('exit', (code) => {
        // The jobs still waiting on this thread (a cancelled job's thread may have had others) run again.
        endJobsOf(w)
        // A thread ended on purpose (idle, or a cancelled job) leaves the next thread's jobs alone.
        if (worker !== w) return
        worker = undefined
        if (code !== 0) failAll(new Error(`The summary worker stopped (exit code ${code}).`))
      })
      worker = w
      return w
    } catch (err) {
      unavailable = true
      options.warn(
        `The summary worker could not start (${err instanceof Error ? err.message : String(err)}); extractive summaries run on the main thread.`
      )
      return undefined
    }
  }

  /** Threads from now on start without the heap limit; an idle limited one ends. */
  function makeRoom(): void {
    if (roomy) return
    roomy = true
    const idle = worker
    if (idle && ![...pending.values()].some((job) => job.thread === idle)) {
      worker = undefined
      void idle.terminate()
    }
  }

  function onThread<T extends ThreadResult>(
    w: Worker,
    job: ThreadJob,
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = nextId++
      const onAbort = () => {
        if (!pending.delete(id)) return
        reject(new Aborted())
        // The thread is busy with this job: end it rather than wait for a result nobody wants.
        if (worker === w) worker = undefined
        void w.terminate()
      }
      pending.set(id, {
        thread: w,
        count: job.kind === 'strategy' || job.kind === 'recount' ? undefined : summaryCounter(job.job.spec),
        onProgress,
        resolve: (result) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(result as T)
        },
        reject: (err) => {
          signal?.removeEventListener('abort', onAbort)
          reject(err)
        }
      })
      signal?.addEventListener('abort', onAbort, { once: true })
      // A job holds the process open (a command-line run awaits it with nothing else to wait on).
      w.ref()
      w.postMessage({ id, job })
    })
  }

  /** Runs a job on the thread; where none can run, or it fails, runs it here (same result, slower to the loop). */
  async function onThreadOrHere<T extends ThreadResult>(
    job: ThreadJob,
    inline: () => T,
    signal?: AbortSignal,
    onProgress?: (done: number, total: number) => void
  ): Promise<T> {
    if (signal?.aborted) throw new Aborted()
    const w = start()
    if (!w) return inline()
    try {
      try {
        return await onThread<T>(w, job, signal, onProgress)
      } catch (err) {
        // Its thread was ended for another job's sake: once more on a fresh one.
        const again = err instanceof ThreadEnded ? start() : undefined
        if (!again) throw err
        return await onThread<T>(again, job, signal, onProgress)
      }
    } catch (err) {
      if (err instanceof Aborted) throw err
      // A crashed thread must not cost the user their summary.
      options.warn(
        `The summary worker failed (${err instanceof Error ? err.message : String(err)}); the work was done on the main thread.`
      )
      return inline()
    }
  }

  return {
    /** The extractive summary of a span, written off the main thread. */
    summarize(
      input: ExtractiveInput,
      signal?: AbortSignal,
      onProgress?: (done: number, total: number) => void
    ): Promise<string> {
      // Ids only where the thread can read the texts: a 10,000-message span is neither loaded nor copied here.
      const job: ExtractiveJob = dbFile
        ? {
            ...input,
            request: {
              ...input.request,
              messages: input.request.messages.map((m) => ({ id: m.id, role: m.role, createdAt: m.createdAt }))
            }
          }
        : withTexts(input)
      return onThreadOrHere({ kind: 'summary', job }, () => runExtractiveJob(withTexts(input)), signal, onProgress)
    },
    /** A model summary with the facts of its span it left out appended (Details), checked off the main thread. */
    details(input: DetailsInput, signal?: AbortSignal): Promise<string> {
      const withTexts = (): DetailsJob => ({
        ...input,
        messages: input.messages.map((m) => ({ role: m.role, text: m.text }))
      })
      const job: DetailsJob = dbFile
        ? { ...input, messages: input.messages.map((m) => ({ id: m.id, role: m.role })) }
        : withTexts()
      return onThreadOrHere({ kind: 'details', job }, () => runDetailsJob(withTexts()), signal)
    },
    /** What the tiered or importance strategy keeps of a whole history, decided off the main thread. */
    strategy(input: StrategyInput, signal?: AbortSignal): Promise<StrategyOutcome> {
      // A strategy loads its own tokenizer and reads the whole history: more than THREAD_HEAP_MB holds.
      makeRoom()
      const job: StrategyJob = dbFile ? { ...input, messages: input.messages.map(headOf) } : strategyWithTexts(input)
      return onThreadOrHere({ kind: 'strategy', job }, () => runStrategyJob(strategyWithTexts(input)), signal)
    },
    /**
     * Messages counted again for a chat's new model, off the main thread (a recount after a model
     * switch): the thread reads their parts itself. Undefined where the thread cannot read the
     * database (in memory): the caller counts them itself.
     */
    recount(job: RecountJob, signal?: AbortSignal): Promise<Recounted[]> | undefined {
      if (!dbFile) return undefined
      // The thread loads the model's own tokenizer, as a strategy does.
      makeRoom()
      return onThreadOrHere({ kind: 'recount', job }, () => runRecountJob(job, storedPartsReader(dbFile)), signal)
    },
    /**
     * Starts the thread ahead of a job a send will wait for (a quick summary): its start overlaps
     * what the main thread reads first. It ends once idle, as after a job.
     */
    warm(): void {
      const w = start()
      if (w && pending.size === 0) endWhenIdle(w)
    },
    /** Whether summaries run on a thread (false before the first one, or where none can run). */
    get threaded(): boolean {
      return worker !== undefined
    },
    async close(): Promise<void> {
      clearTimeout(idleTimer)
      const w = worker
      worker = undefined
      failAll(new Aborted())
      if (w) await w.terminate()
    }
  }
}
