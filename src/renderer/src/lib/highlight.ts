/** Re-declared from the contract (runtime constants stay out of the renderer's imports). */
export const HIGHLIGHT_START = '\u0002'
export const HIGHLIGHT_END = '\u0003'

export interface SnippetPart {
  text: string
  match: boolean
}

/** A search snippet split into plain text and matches (wrapped in \u0002 … \u0003 by the server). */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  let rest = snippet
  while (rest.length > 0) {
    const start = rest.indexOf(HIGHLIGHT_START)
    if (start < 0) {
      parts.push({ text: rest, match: false })
      break
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), match: false })
    const end = rest.indexOf(HIGHLIGHT_END, start + 1)
    if (end < 0) {
      parts.push({ text: rest.slice(start + 1), match: true })
      break
    }
    if (end > start + 1) parts.push({ text: rest.slice(start + 1, end), match: true })
    rest = rest.slice(end + 1)
  }
  // Stray markers never reach the screen.
  return parts
    .map((p) => ({ ...p, text: p.text.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '') }))
    .filter((p) => p.text !== '')
}
