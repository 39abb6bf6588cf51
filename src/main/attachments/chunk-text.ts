/** Passages of about this many characters: a paragraph or two, small enough to bring back whole. */
export const CHUNK_CHARS = 1200

/** JavaScript's `\s`, without a regular expression for the common characters. */
const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || (code >= 128 && /\s/.test(String.fromCharCode(code)))

interface Line {
  /** Where the line starts and where its text ends (before its "\r\n" or "\n"). */
  start: number
  end: number
  /** Whether a paragraph break (a line end whose following white space holds another) follows it. */
  lastOfParagraph: boolean
}

/** The text's lines, found as they are read (never a split of the whole text). */
function* lines(text: string): Generator<Line> {
  for (let start = 0; ;) {
    const lf = text.indexOf('\n', start)
    if (lf === -1) return yield { start, end: text.length, lastOfParagraph: true }
    // A break reaches past the last "\n" of the white space after this one.
    let next = -1
    for (let i = lf + 1; i < text.length && isSpace(text.charCodeAt(i)); i++)
      if (text.charCodeAt(i) === 10) next = i + 1
    yield { start, end: lf > start && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf, lastOfParagraph: next !== -1 }
    start = next === -1 ? lf + 1 : next
  }
}

/** Packs the lines of a paragraph longer than `max` into passages, cutting a longer line. */
function packer(max: number) {
  let current = ''
  return {
    add(line: string, out: string[]): void {
      for (let at = 0; at < Math.max(line.length, 1); at += max) {
        const part = line.slice(at, at + max)
        if (current && current.length + 1 + part.length > max) {
          out.push(current)
          current = ''
        }
        current = current ? `${current}\n${part}` : part
      }
    },
    finish(out: string[]): void {
      if (current.trim()) out.push(current.trimEnd())
      current = ''
    }
  }
}

/**
 * A file's text as passages for the recall index, a few at a time: paragraphs packed up to `max`
 * characters; a longer paragraph is split at line ends, a longer line cut. Nothing is dropped but
 * blank lines, so every word of the file is findable. The text is read as passages are taken:
 * splitting 5 MB of short lines at once made millions of strings, a second of garbage collection.
 */
export function* textChunks(text: string, max = CHUNK_CHARS): Generator<string> {
  let pending: string | undefined
  let paragraphStart: number | undefined
  /** The lines of the paragraph so far, while it may still be short enough to keep whole. */
  let held: Line[] | undefined = []
  /** Whether the paragraph so far has more than white space. */
  let written = false
  const pack = packer(max)
  const pieces: string[] = []
  for (const line of lines(text)) {
    paragraphStart ??= line.start
    if (held) {
      held.push(line)
      written ||= text.slice(line.start, line.end).trim() !== ''
      // A blank paragraph is dropped whatever its length.
      if (written && line.end - paragraphStart > max) {
        for (const l of held) pack.add(text.slice(l.start, l.end), pieces)
        held = undefined
      }
    } else pack.add(text.slice(line.start, line.end), pieces)
    if (line.lastOfParagraph) {
      if (held) pieces.push(written ? text.slice(paragraphStart, line.end).trim() : '')
      else pack.finish(pieces)
      held = []
      written = false
      paragraphStart = undefined
    }
    for (const piece of pieces) {
      if (piece === '') continue
      if (pending !== undefined && pending.length + 2 + piece.length <= max) pending = `${pending}\n\n${piece}`
      else {
        if (pending !== undefined) yield pending
        pending = piece
      }
    }
    pieces.length = 0
  }
  if (pending !== undefined) yield pending
}

/** Every passage of a text at once (see textChunks). */
export const chunkText = (text: string, max = CHUNK_CHARS): string[] => [...textChunks(text, max)]
