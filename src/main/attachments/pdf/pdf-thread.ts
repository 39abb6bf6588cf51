import { Worker } from 'node:worker_threads'
import { PDF_WORKER, type PdfMessage, type PdfWorkerData } from './pdf-protocol'
import { workerSource } from '../../workers/worker-source'

/** What a PDF holds, as far as it was read, and what was left out (in words), if anything. */
export interface PdfContent {
  pages: number
  /** The text of pages 1…texts.length. */
  texts: string[]
  omitted: string | null
}

export interface PdfLimits {
  maxPages: number
  /** Text read at most (characters); the pages after are left out. */
  maxChars: number
  timeoutMs: number
  /** The thread's heap: a file that needs more is stopped, not the app. */
  maxMemoryMb: number
}

export const PDF_LIMITS: PdfLimits = { maxPages: 2000, maxChars: 4_000_000, timeoutMs: 20_000, maxMemoryMb: 512 }

const range = (from: number, to: number) => (from === to ? `page ${from}` : `pages ${from}–${to}`)

/**
 * Reads a PDF on a worker thread of its own, within limits on pages, text, time and memory: the
 * main thread only receives the pages' text. Resolves null when the bytes are not a PDF the library
 * can open (or it could not be opened within the limits).
 */
export function readPdf(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): Promise<PdfContent | null> {
  const source = workerSource(__dirname, 'pdf-worker')
  if (!source) return Promise.reject(new Error('The PDF worker was not found beside the app.'))
  return new Promise((resolve) => {
    let pages: number | null = null
    const texts: string[] = []
    let settled = false
    const worker = new Worker(source.code, {
      eval: source.eval,
      workerData: {
        role: PDF_WORKER,
        bytes,
        maxPages: limits.maxPages,
        maxChars: limits.maxChars
      } satisfies PdfWorkerData,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true
    })
    const finish = (why: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      if (pages === null) return resolve(null)
      const read = texts.length
      const omitted =
        read < pages
          ? `${range(read + 1, pages)} of ${pages} were not read: ${why ?? `only the first ${limits.maxPages} pages are read`}.`
          : null
      resolve({ pages, texts, omitted })
    }
    const timer = setTimeout(
      () => finish(`reading stopped after ${Math.round(limits.timeoutMs / 1000)} s`),
      limits.timeoutMs
    )
    worker.on('message', (m: PdfMessage) => {
      if (m.type === 'opened') pages = m.pages
      else if (m.type === 'page') texts.push(m.text)
      else if (m.type === 'done')
        finish(m.stoppedAtChars ? `the text read reached ${limits.maxChars.toLocaleString('en-US')} characters` : null)
      else finish(`the file could not be read further (${m.message})`)
    })
    worker.on('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `reading needed more than ${limits.maxMemoryMb} MB`
          : `reading failed (${err.message})`
      )
    )
    worker.on('exit', () => finish('reading stopped'))
  })
}
