/**
 * BPE encoders merge each piece of their split regex in time quadratic in its length, and a run
 * with no spaces ("bbbb…", a wall of "!", 5 MB of spaces) is one piece: 100k characters took 4 s,
 * 1 M took 447 s. Text is therefore counted in segments that end where every encoding's split
 * regex (o200k and cl100k, tiktoken's and gpt-tokenizer's) already ends a piece, so the sum of
 * the segments' counts equals the count of the whole; only a run longer than MAX_RUN with no
 * such place is cut by length, which costs a token or two per cut on that run alone.
 */

/** The longest stretch counted without a piece boundary (~0.3 ms of BPE per stretch). */
export const MAX_RUN = 384
/** Segments are packed up to this size: one encoder call each. */
export const SEGMENT = 8192

// JavaScript's \s (gpt-tokenizer) plus U+0085 (Unicode White_Space, tiktoken).
const isSpace = (c: number) =>
  c === 0x20 ||
  (c >= 0x09 && c <= 0x0d) ||
  c === 0xa0 ||
  c === 0x85 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const NUMERIC = /\p{N}/u
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u

/**
 * True where a piece of the split regex starts at `i` whatever the encoding, and the text before
 * `i` splits the same on its own: a space between two non-spaces (" word" is one piece), an ASCII
 * digit after a non-space non-number (digits are pieces of their own), a letter or digit after a
 * line break (no piece runs from a line break into a letter).
 */
function startsPiece(text: string, i: number): boolean {
  const prev = text.charCodeAt(i - 1)
  const cur = text.charCodeAt(i)
  if (cur === 0x20) return !isSpace(prev) && i + 1 < text.length && !isSpace(text.charCodeAt(i + 1))
  if (isDigit(cur))
    return (
      !isSpace(prev) &&
      !isDigit(prev) &&
      !NUMERIC.test(text.slice(i - 2 >= 0 && (prev & 0xfc00) === 0xdc00 ? i - 2 : i - 1, i))
    )
  if (prev === 0x0a) return LETTER_OR_NUMBER.test(String.fromCodePoint(text.codePointAt(i)!))
  return false
}

/** A cut by length that does not split a surrogate pair or a CR LF. */
function hardCut(text: string, at: number): number {
  const c = text.charCodeAt(at)
  const prev = text.charCodeAt(at - 1)
  return (c & 0xfc00) === 0xdc00 || (prev === 0x0d && c === 0x0a) ? at - 1 : at
}

/**
 * Splits `text` into segments whose counts add up to the count of the whole (exactly, unless a
 * run longer than MAX_RUN had to be cut). Linear in the text's length; lazy, so it can be sliced.
 */
export function* textSegments(text: string, maxRun = MAX_RUN, segment = SEGMENT): Generator<string> {
  if (text.length <= maxRun) {
    yield text
    return
  }
  let start = 0 // of the current segment
  let lastStart = 0 // the latest piece boundary at or after `start`
  for (let i = 1; i < text.length; i++) {
    if (startsPiece(text, i)) {
      if (i - start > segment && lastStart > start) {
        yield text.slice(start, lastStart)
        start = lastStart
      }
      lastStart = i
    } else if (i - lastStart >= maxRun) {
      // A run with no boundary: close the segment before it, then cut the run by length.
      const cut = hardCut(text, i)
      if (cut > start) yield text.slice(start, cut)
      start = lastStart = cut
    }
  }
  yield text.slice(start)
}
