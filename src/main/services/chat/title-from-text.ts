const AUTO_TITLE_CHARS = 60
/** Of the first line, a title reads this much at most: a message can be a million characters on one line. */
const TITLE_SCAN_CHARS = 4096

/** A title from the first line of the first message, cut at a word boundary. */
export function titleFromText(text: string): string {
  const start = text.search(/\S/)
  if (start === -1) return ''
  const end = text.indexOf('\n', start)
  const line = text
    .slice(start, Math.min(end === -1 ? text.length : end, start + TITLE_SCAN_CHARS))
    .replace(/\s+/g, ' ')
    .trim()
  if (line.length <= AUTO_TITLE_CHARS) return line
  const cut = line.slice(0, AUTO_TITLE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${(space > AUTO_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
