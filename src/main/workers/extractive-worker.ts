/**
 * Entry of the worker thread that writes extractive summaries (see extractive-thread.ts). Built as
 * its own file beside the bundle (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { EXTRACTIVE_WORKER, runExtractiveJob, type ExtractiveJob, type ExtractiveOutcome, type ExtractiveWorkerData } from './extractive-job'
import { messageTextReader } from './read-message-texts'

const data = workerData as ExtractiveWorkerData | undefined
if (parentPort && data?.role === EXTRACTIVE_WORKER) {
  const port = parentPort
  const readTexts = data.dbFile ? messageTextReader(data.dbFile) : undefined
  port.on('message', (message: { id: number; job: ExtractiveJob }) => {
    let outcome: ExtractiveOutcome
    try {
      outcome = { id: message.id, text: runExtractiveJob(message.job, readTexts) }
    } catch (err) {
      outcome = { id: message.id, error: err instanceof Error ? err.message : String(err) }
    }
    port.postMessage(outcome)
  })
}
