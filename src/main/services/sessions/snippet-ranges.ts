/** The marks FTS5's snippet() is asked to wrap each matched word in (search-repo). */
const START = '\u0002'
const END = '\u0003'

/** A passage as the sidebar shows it: plain text, and the matched words as [start, end) offsets in it. */
export interface RangedText {
  text: string
  ranges: Array<[number, number]>
}

/**
 * Turns a marked snippet into text and ranges, so no markup travels to the renderer: it marks the
 * ranges itself. Whitespace runs (line breaks) become one space, a mark left open ends with the
 * text, and a stray end mark is dropped.
 */
export function snippetRanges(snippet: string): RangedText {
  let text = ''
  const ranges: Array<[number, number]> = []
  let open = -1
  for (const char of snippet.replace(/\s+/g, ' ').trim()) {
    if (char === START) {
      if (open < 0) open = text.length
    } else if (char === END) {
      if (open >= 0 && text.length > open) ranges.push([open, text.length])
      open = -1
    } else text += char
  }
  if (open >= 0 && text.length > open) ranges.push([open, text.length])
  return { text, ranges }
}

/**
 * Where each of the words occurs in the text, ignoring case (a title matches when it holds every
 * word typed, anywhere): the ranges, ordered, overlaps merged.
 */
export function wordRanges(text: string, words: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = []
  for (const word of words) {
    if (!word) continue
    const pattern = new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu')
    for (const hit of text.matchAll(pattern)) found.push([hit.index, hit.index + hit[0].length])
  }
  found.sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const [start, end] of found) {
    const last = merged.at(-1)
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return merged
}
