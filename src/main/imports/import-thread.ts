import { Worker } from 'node:worker_threads'
import type { Db } from '../db/client'
import type { ImportRecord } from '../db/repositories/imports-repo'
import { workerSource } from '../workers/worker-source'
import type { PreparedImport, WriteOptions } from './import-job'
import { IMPORT_WORKER, rebuildError, serveImportJobs, type ImportJob, type ImportOutcome } from './import-protocol'

type Job = ImportJob extends infer J ? (J extends ImportJob ? Omit<J, 'id'> : never) : never

export interface ImportThread {
  /** Parses and checks an export's bytes on the thread; the files come back, the messages stay there under `key`. */
  prepare(key: number, bytes: Uint8Array, wrapped: boolean): Promise<PreparedImport>
  /** Writes the export prepared under `key` into the database file, in one transaction, on its own connection. */
  write(key: number, dbFile: string, options: WriteOptions): Promise<{ sessionId: string } | { earlier: ImportRecord }>
  /** Forgets an export that will not be written. */
  drop(key: number): void
}

/**
 * Large imports on a worker thread: parsing, checking and counting a 40 MB export and writing its
 * thousands of rows take seconds, which on the main thread would stall every reply and request.
 * One thread, started on first use, holding the process only while it has work. Where no thread can run, the jobs run inline.
 */
export function createImportThread(options: {
  warn(message: string): void
  /** An in-memory database, which no other connection can reach: the jobs run inline on it. */
  memoryDb?: Db
}): ImportThread {
  const { warn, memoryDb } = options
  let worker: Worker | undefined
  let inline: ((job: ImportJob) => void) | undefined
  let nextId = 1
  const pending = new Map<number, { resolve(outcome: ImportOutcome): void; reject(err: Error): void }>()

  const settle = (outcome: ImportOutcome) => {
    const job = pending.get(outcome.id)
    pending.delete(outcome.id)
    // Idle, the thread never keeps the process alive; busy, it does (the CLI waits for its import).
    if (pending.size === 0) worker?.unref()
    if (!job) return
    if ('error' in outcome) job.reject(rebuildError(outcome))
    else job.resolve(outcome)
  }
  const failAll = (err: Error) => {
    for (const job of pending.values()) job.reject(err)
    pending.clear()
  }

  function runInline(): (job: ImportJob) => void {
    if (!inline) {
      let handler: ((job: ImportJob) => void) | undefined
      serveImportJobs(settle, (h) => (handler = h), memoryDb ? () => ({ db: memoryDb, close() {} }) : undefined)
      inline = handler!
    }
    return inline
  }

  function start(): Worker | undefined {
    if (worker) return worker
    const source = inline || memoryDb ? undefined : workerSource(__dirname, 'import-worker')
    if (!source) return undefined
    try {
      const w = new Worker(source.code, { eval: source.eval, workerData: { role: IMPORT_WORKER } })
      w.on('message', settle)
      w.on('error', (err) => {
        if (worker === w) worker = undefined
        failAll(err)
      })
      w.on('exit', (code) => {
        if (worker === w) worker = undefined
        if (code !== 0) failAll(new Error(`The import worker stopped (exit code ${code}).`))
      })
      worker = w
      return w
    } catch (err) {
      warn(
        `The import worker could not start (${err instanceof Error ? err.message : String(err)}); imports run on the main thread.`
      )
      return undefined
    }
  }

  function run(job: Job, transfer: ArrayBuffer[] = []): Promise<ImportOutcome> {
    return new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      const w = start()
      const message = { ...job, id } as ImportJob
      w?.ref()
      if (w) w.postMessage(message, transfer)
      else runInline()(message)
    })
  }

  return {
    async prepare(key, bytes, wrapped) {
      // The bytes move to the thread (a copy first when they are part of a larger buffer).
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
      const outcome = await run({ kind: 'prepare', key, bytes: own, wrapped }, [own.buffer as ArrayBuffer])
      return (outcome as Extract<ImportOutcome, { prepared: unknown }>).prepared
    },
    async write(key, dbFile, options) {
      const outcome = await run({ kind: 'write', key, dbFile, options })
      return (outcome as Extract<ImportOutcome, { written: unknown }>).written
    },
    drop(key) {
      void run({ kind: 'drop', key }).catch(() => undefined)
    }
  }
}
