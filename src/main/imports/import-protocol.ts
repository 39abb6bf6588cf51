import type { Db } from '../db/client'
import type { ImportRecord } from '../db/repositories/imports-repo'
import { openSecondConnection } from '../db/repositories/restore-repo'
import type { DistillExport } from './distill-export'
import { ImportError } from './openai-messages'
import { prepareImport, writeImport, type PreparedImport, type WriteOptions } from './import-job'

export const IMPORT_WORKER = 'distill-import'

/** Jobs the import thread runs. A prepared export stays on the thread, under its key, until written or dropped. */
export type ImportJob =
  | { id: number; kind: 'prepare'; key: number; bytes: Uint8Array; wrapped: boolean }
  | { id: number; kind: 'write'; key: number; dbFile: string; options: WriteOptions }
  | { id: number; kind: 'drop'; key: number }

export type ImportOutcome =
  | { id: number; prepared: PreparedImport }
  | { id: number; written: { sessionId: string } | { earlier: ImportRecord } }
  | { id: number; dropped: true }
  | { id: number; error: string; import: boolean }

/** An error that crossed from the thread, as the error it was: a sentence for the user, or a failure. */
export function rebuildError(outcome: Extract<ImportOutcome, { error: string }>): Error {
  return outcome.import ? new ImportError(outcome.error) : new Error(outcome.error)
}

/** Runs import jobs as they arrive (on the worker thread, or inline when there is none). */
export function serveImportJobs(
  post: (outcome: ImportOutcome, transfer: ArrayBuffer[]) => void,
  listen: (handler: (job: ImportJob) => void) => void,
  connect: (dbFile: string) => { db: Db; close(): void } = openSecondConnection
): void {
  const parsed = new Map<number, DistillExport>()
  listen((job) => {
    try {
      if (job.kind === 'prepare') {
        const { data, prepared } = prepareImport(job.bytes, job.wrapped)
        parsed.set(job.key, data)
        // The files' bytes move to the main thread, not copied.
        post(
          { id: job.id, prepared },
          prepared.files.map((f) => f.bytes.buffer as ArrayBuffer)
        )
      } else if (job.kind === 'write') {
        const data = parsed.get(job.key)
        if (!data) throw new Error('The import was not prepared on this thread.')
        parsed.delete(job.key)
        const connection = connect(job.dbFile)
        try {
          post({ id: job.id, written: writeImport(connection.db, data, job.options) }, [])
        } finally {
          connection.close()
        }
      } else {
        parsed.delete(job.key)
        post({ id: job.id, dropped: true }, [])
      }
    } catch (err) {
      post(
        { id: job.id, error: err instanceof Error ? err.message : String(err), import: err instanceof ImportError },
        []
      )
    }
  })
}
