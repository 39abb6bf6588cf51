/**
 * Entry of the worker thread that reads and writes large chat imports (see import-thread.ts). Built
 * as its own file beside the bundle (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { IMPORT_WORKER, serveImportJobs } from './import-protocol'

if (parentPort && (workerData as { role?: string } | undefined)?.role === IMPORT_WORKER) {
  const port = parentPort
  serveImportJobs(
    (outcome, transfer) => port.postMessage(outcome, transfer),
    (handler) => port.on('message', handler)
  )
}
