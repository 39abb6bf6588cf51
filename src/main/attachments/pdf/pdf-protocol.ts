/** What the PDF worker is given, and what it sends back as it reads (pdf-worker.ts, pdf-thread.ts). */
export const PDF_WORKER = 'distill-pdf'

export interface PdfWorkerData {
  role: typeof PDF_WORKER
  bytes: Uint8Array
  maxPages: number
  maxChars: number
}

export type PdfMessage =
  | { type: 'opened'; pages: number }
  | { type: 'page'; text: string }
  | { type: 'done'; stoppedAtChars: boolean }
  | { type: 'failed'; message: string }
