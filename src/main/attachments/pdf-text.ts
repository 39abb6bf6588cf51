import { extractText, getDocumentProxy } from 'unpdf'

// pdf.js logs recoverable damage to the console; verbosity 0 keeps it to errors.

/** A PDF's page count, or null when the bytes are not a PDF the library can open. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | null> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
    const pages = pdf.numPages
    await pdf.loadingTask.destroy()
    return pages
  } catch {
    return null
  }
}

/** The text of each page, for providers that cannot read PDFs themselves. */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
  try {
    const { text } = await extractText(pdf, { mergePages: false })
    return text
  } finally {
    await pdf.loadingTask.destroy()
  }
}
