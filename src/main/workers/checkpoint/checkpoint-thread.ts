import { statSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { DbHandle } from '../../db/client'
import type { NewMessage } from '../../db/repositories/messages/messages-repo'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import { workerSource } from '../worker-source'
import type { ThreadAnswer, ThreadRequest } from './checkpoint-protocol'

/** SQLite's own point for a checkpoint: 1,000 pages of log. */
const CHECKPOINT_BYTES = 1000 * 4096
/** How often the log's size is looked at. */
const LOOK_EVERY_MS = 500

export interface Checkpoints {
  /** Stops the thread (before the database closes, so its close is the last and empties the log). */
  close(): Promise<void>
  /**
   * Writes a message at the end of its chat on the thread's connection, in a transaction of its
   * own; resolves with the message as stored (its parts those given). Absent where no thread can run.
   */
  append?(row: NewMessage): Promise<ChatMessage>
}

/**
 * Checkpoints of the write-ahead log on a worker thread of their own. SQLite otherwise runs one in
 * the commit that passes 1,000 pages of log, on the event loop: copying 4 MB back into the file and
 * syncing it held the loop 10-25 ms after a message of a million characters or an imported chat.
 * The main connection stops checkpointing; every half second the log's size is looked at, and past
 * 1,000 pages the thread (started then) checkpoints on its own connection. Where no thread can
 * start, SQLite checkpoints as before.
 *
 * The same thread writes the long messages the app sends (services/chat/turn-writer.ts): storing
 * a message of a million characters (its row, its full-text index and the index's merges) held
 * the event loop 20-45 ms in one statement.
 */
export function startCheckpoints(database: DbHandle, warn: (message: string, err?: unknown) => void): Checkpoints {
  const source = workerSource(__dirname, 'checkpoint-worker')
  if (!source) return { close: async () => undefined }
  const main = database.sqlite
  main.pragma('wal_autocheckpoint = 0')
  let worker: Worker | undefined
  let busy = false
  let failed = false
  let closed = false
  /** Messages handed to the thread and not yet answered for, by id. */
  const appending = new Map<string, { row: NewMessage; resolve(m: ChatMessage): void; reject(e: Error): void }>()

  const idle = () => {
    if (!busy && appending.size === 0) worker?.unref()
  }
  const fallBack = (err: unknown) => {
    if (failed) return
    failed = true
    worker = undefined
    warn('The checkpoint thread stopped; SQLite checkpoints on the main connection again', err)
    main.pragma('wal_autocheckpoint = 1000')
    const lost = new Error('The database thread stopped before it answered.')
    for (const waiting of appending.values()) waiting.reject(lost)
    appending.clear()
  }
  const answered = (answer: ThreadAnswer) => {
    if (typeof answer === 'string') {
      busy = false
      if (answer !== 'done') warn(`A checkpoint on the thread ${answer}`)
    } else {
      const waiting = appending.get(answer.appended)
      appending.delete(answer.appended)
      if (waiting && 'message' in answer) waiting.resolve({ ...answer.message, parts: waiting.row.parts })
      else waiting?.reject(new Error('error' in answer ? answer.error : 'The message was not written.'))
    }
    idle()
  }
  /** The thread, started on first need; undefined where it could not start. */
  const thread = (): Worker | undefined => {
    if (failed || closed) return undefined
    try {
      worker ??= new Worker(source.code, {
        eval: source.eval,
        workerData: { role: 'distill-checkpoint', file: database.file }
      })
        .on('message', answered)
        .on('error', fallBack)
        .on('exit', () => {
          // Gone without being asked (it could not open the file): SQLite checkpoints as before.
          if (worker) fallBack(new Error('The checkpoint thread exited.'))
        })
    } catch (err) {
      fallBack(err)
      return undefined
    }
    return worker
  }
  const ask = (w: Worker, request: ThreadRequest) => {
    w.ref()
    w.postMessage(request)
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
    const w = thread()
    if (!w) return
    busy = true
    ask(w, 'checkpoint')
  }, LOOK_EVERY_MS)
  timer.unref()

  return {
    append(row) {
      const w = thread()
      if (!w) return Promise.reject(new Error('The database thread is not running.'))
      return new Promise<ChatMessage>((resolve, reject) => {
        appending.set(row.id, { row, resolve, reject })
        ask(w, { append: row })
      })
    },
    async close() {
      closed = true
      clearInterval(timer)
      const w = worker
      worker = undefined
      if (!w) return
      await new Promise<void>((resolve) => {
        w.once('exit', () => resolve())
        // An idle thread is unreferenced: without this the process could end while close() waits,
        // before the caller prints anything (a `distill replay` ended silently with exit code 0).
        w.ref()
        w.postMessage('close' satisfies ThreadRequest)
      })
      const gone = new Error('The app closed before the message was written.')
      for (const waiting of appending.values()) waiting.reject(gone)
      appending.clear()
    }
  }
}
