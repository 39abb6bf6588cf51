/**
 * Entry of a worker thread that reads one PDF (see pdf-thread.ts): its page count, then the text of
 * its pages one at a time, so a 14,000-page file never holds every page at once and the thread can
 * be stopped at any page. Built as its own file beside the bundle (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { getDocumentProxy } from 'unpdf'
import { PDF_WORKER, type PdfMessage, type PdfWorkerData } from './pdf-protocol'

const data = workerData as PdfWorkerData | undefined
if (parentPort && data?.role === PDF_WORKER) {
  const port = parentPort
  const post = (message: PdfMessage) => port.postMessage(message)
  void (async () => {
    // pdf.js logs recoverable damage to the console; verbosity 0 keeps it to errors.
    const pdf = await getDocumentProxy(new Uint8Array(data.bytes), { verbosity: 0 })
    post({ type: 'opened', pages: pdf.numPages })
    let chars = 0
    for (let n = 1; n <= Math.min(pdf.numPages, data.maxPages); n++) {
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      // The way unpdf's extractText joins a page's items.
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')
      page.cleanup()
      post({ type: 'page', text })
      chars += text.length
      if (chars >= data.maxChars && n < Math.min(pdf.numPages, data.maxPages))
        return post({ type: 'done', stoppedAtChars: true })
    }
    post({ type: 'done', stoppedAtChars: false })
  })().catch((err: unknown) => post({ type: 'failed', message: err instanceof Error ? err.message : String(err) }))
}
