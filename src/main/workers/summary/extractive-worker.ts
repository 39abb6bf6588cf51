/**
 * Entry of the worker thread that does the offline summarizing work (see extractive-thread.ts): extractive
 * summaries, the tiered and importance strategies, and a model summary's Details check. Built as its own file beside the bundle
 * (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { runExtractiveJob } from './extractive-job'
import { EXTRACTIVE_WORKER, type ExtractiveOutcome, type ExtractiveWorkerData, type ThreadJob } from './thread-protocol'
import { messageTextReader } from './read-message-texts'
import { runStrategyJob } from './strategy-job'
import { runDetailsJob } from './details-job'
import { runRecountJob } from './recount-job'
import { storedPartsReader } from '../../db/repositories/messages/message-parts-repo'
import { countOnMainThread, summaryCounter } from './job-texts'
import { mainThreadCounting, type CountRequest } from './main-thread-counter'

const data = workerData as ExtractiveWorkerData | undefined
if (parentPort && data?.role === EXTRACTIVE_WORKER) {
  const port = parentPort
  const readTexts = data.dbFile ? messageTextReader(data.dbFile) : undefined
  const readParts = data.dbFile ? storedPartsReader(data.dbFile) : undefined
  // Summaries count with the main thread's tokenizer; a strategy counts far more text and loads its own.
  const counting = data.countCells
    ? mainThreadCounting((request: CountRequest) => port.postMessage(request), data.countCells)
    : undefined
  port.on('message', (message: { id: number; job: ThreadJob }) => {
    let outcome: ExtractiveOutcome
    try {
      const { job } = message
      const count =
        job.kind === 'strategy' || job.kind === 'recount'
          ? undefined
          : counting?.(message.id, summaryCounter(job.job.spec))
      const result =
        job.kind === 'recount'
          ? runRecountJob(job.job, readParts!)
          : job.kind === 'strategy'
            ? runStrategyJob(job.job, readTexts)
            : job.kind === 'details'
              ? runDetailsJob(job.job, readTexts, count)
              : runExtractiveJob(
                  job.job,
                  readTexts,
                  count,
                  (done, total) =>
                    port.postMessage({ id: message.id, progress: { done, total } } satisfies ExtractiveOutcome),
                  // The texts a summary is about to count, asked of the main thread at once.
                  count && ((texts) => countOnMainThread((batch) => port.postMessage(batch), message.id, texts))
                )
      outcome = { id: message.id, result }
    } catch (err) {
      outcome = { id: message.id, error: err instanceof Error ? err.message : String(err) }
    }
    port.postMessage(outcome)
  })
}
