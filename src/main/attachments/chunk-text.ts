/** Passages of about this many characters: a paragraph or two, small enough to bring back whole. */
export const CHUNK_CHARS = 1200

/**
 * Splits a file's text into passages for the recall index: paragraphs packed up to `max`
 * characters; a longer paragraph is split at line ends, a longer line cut. Nothing is dropped
 * but blank lines, so every word of the file is findable.
 */
export function chunkText(text: string, max = CHUNK_CHARS): string[] {
  const pieces: string[] = []
  for (const paragraph of text.split(/\r?\n\s*\r?\n/)) {
    if (paragraph.trim() === '') continue
    if (paragraph.length <= max) {
      pieces.push(paragraph.trim())
      continue
    }
    let current = ''
    for (const line of paragraph.split(/\r?\n/)) {
      for (let at = 0; at < Math.max(line.length, 1); at += max) {
        const part = line.slice(at, at + max)
        if (current && current.length + 1 + part.length > max) {
          pieces.push(current)
          current = ''
        }
        current = current ? `${current}\n${part}` : part
      }
    }
    if (current.trim()) pieces.push(current.trimEnd())
  }
  const chunks: string[] = []
  for (const piece of pieces) {
    const last = chunks[chunks.length - 1]
    if (last !== undefined && last.length + 2 + piece.length <= max) chunks[chunks.length - 1] = `${last}\n\n${piece}`
    else chunks.push(piece)
  }
  return chunks
}
