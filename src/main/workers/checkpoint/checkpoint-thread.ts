import { statSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { DbHandle } from '../../db/client'
import { workerSource } from '../worker-source'

/** SQLite's own point for a checkpoint: 1,000 pages of log. */
const CHECKPOINT_BYTES = 1000 * 4096
/** How often the log's size is looked at. */
const LOOK_EVERY_MS = 500

export interface Checkpoints {
  /** Stops the thread (before the database closes, so its close is the last and empties the log). */
  close(): Promise<void>
}

/**
 * Checkpoints of the write-ahead log on a worker thread of their own. SQLite otherwise runs one in
 * the commit that passes 1,000 pages of log, on the event loop: copying 4 MB back into the file and
 * syncing it held the loop 10-25 ms after a message of a million characters or an imported chat.
 * The main connection stops checkpointing; every half second the log's size is looked at, and past
 * 1,000 pages the thread (started then) checkpoints on its own connection. Where no thread can
 * start, SQLite checkpoints as before.
 */
export function startCheckpoints(database: DbHandle, warn: (message: string, err?: unknown) => void): Checkpoints {
  const source = workerSource(__dirname, 'checkpoint-worker')
  if (!source) return { close: async () => undefined }
  const main = database.sqlite
  main.pragma('wal_autocheckpoint = 0')
  let worker: Worker | undefined
  let busy = false
  let failed = false

  const fallBack = (err: unknown) => {
    if (failed) return
    failed = true
    worker = undefined
    warn('The checkpoint thread stopped; SQLite checkpoints on the main connection again', err)
    main.pragma('wal_autocheckpoint = 1000')
  }

  const timer = setInterval(() => {
    if (busy || failed) return
    let size = 0
    try {
      size = statSync(`${database.file}-wal`).size
    } catch {
      return
    }
    if (size < CHECKPOINT_BYTES) return
    try {
      worker ??= new Worker(source.code, {
        eval: source.eval,
        workerData: { role: 'distill-checkpoint', file: database.file }
      })
        .on('message', (answer: string) => {
          busy = false
          worker?.unref()
          if (answer !== 'done') warn(`A checkpoint on the thread ${answer}`)
        })
        .on('error', fallBack)
        .on('exit', () => {
          // Gone without being asked (it could not open the file): SQLite checkpoints as before.
          if (worker) fallBack(new Error('The checkpoint thread exited.'))
        })
    } catch (err) {
      fallBack(err)
      return
    }
    busy = true
    worker.ref()
    worker.postMessage('checkpoint')
  }, LOOK_EVERY_MS)
  timer.unref()

  return {
    async close() {
      clearInterval(timer)
      const w = worker
      worker = undefined
      if (!w) return
      await new Promise<void>((resolve) => {
        w.once('exit', () => resolve())
        // An idle thread is unreferenced: without this the process could end while close() waits,
        // before the caller prints anything (a `distill replay` ended silently with exit code 0).
        w.ref()
        w.postMessage('close')
      })
    }
  }
}
