import type { StrategyOutcome } from '../../engine/strategies/strategy-outcome'
import type { DetailsJob } from './details-job'
import type { ExtractiveJob } from './extractive-job'
import type { StrategyJob } from './strategy-job'
import type { RecountJob, Recounted } from './recount-job'

/** What the thread is asked to do: write a summary, or run a strategy over a whole history. */
export type ThreadJob =
  | { kind: 'summary'; job: ExtractiveJob }
  | { kind: 'strategy'; job: StrategyJob }
  | { kind: 'details'; job: DetailsJob }
  | { kind: 'recount'; job: RecountJob }

/** What a job gives back: a summary's text, a strategy's outcome, or a recount's counts. */
export type ThreadResult = string | StrategyOutcome | Recounted[]

/** The thread's answer: the summary text, or the strategy's outcome. */
export type ExtractiveOutcome =
  | { id: number; result: ThreadResult }
  | { id: number; error: string }
  /** A long summary's progress: messages summarized so far, of all (the job goes on). */
  | { id: number; progress: { done: number; total: number } }

/** Marks the threads this module starts, so the entry never answers another thread's messages. */
export const EXTRACTIVE_WORKER = 'distill-extractive-summaries'

/** What a summary thread starts with. */
export interface ExtractiveWorkerData {
  role: typeof EXTRACTIVE_WORKER
  /** The database the thread reads message text from; texts come with each job when absent. */
  dbFile?: string
  /** Where the main thread answers the thread's token counts (main-thread-counter.ts). */
  countCells?: Int32Array
}
