/**
 * One line of what an attached file was, made from its content without a model call, for the
 * compression manifest: once a file has left the active context, its name alone rarely says enough.
 */

/** A description is a line in a list: at most this many characters. */
export const DESCRIPTION_MAX = 120

function clip(text: string, max = DESCRIPTION_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`
}

const letters = (line: string) => (line.match(/\p{L}/gu) ?? []).length

/** A comment's words without its markers: `// Parses dates`, `# Config`, `/** Loads … *\/`, `-- Schema`. */
function commentText(line: string): string | null {
  const m = /^\s*(?:\/\/+|#+(?!!)|\/\*+|\*+(?!\/)|--|<!--|;+|%+|"""|''')\s*(.*?)\s*(?:\*\/|-->|"""|''')?\s*$/.exec(line)
  return m && letters(m[1]!) >= 3 ? m[1]! : null
}

/** Lines a reader skips: shebangs, encodings, lone brackets, front-matter fences, "use strict". */
const NOISE = /^\s*(#!|# -\*-|['"]use strict['"]|[-=_*~`#{}()[\];,.<>/\\|]+\s*$)/

function csvDescription(text: string, separator: string, kind: string): string | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '')
  const header = lines[0]?.split(separator).map((c) => c.trim().replace(/^"|"$/g, ''))
  if (!header || header.length < 2) return null
  const rows = lines.length - 1
  return clip(`${kind} with ${rows} ${rows === 1 ? 'row' : 'rows'}; columns: ${header.join(', ')}`)
}

/**
 * A text or code file: a table's columns; else its first Markdown heading (within the first 40
 * lines); else its first comment of substance (code often opens with what the file is for); else
 * its first line with words in it.
 */
export function describeText(text: string, filename = ''): string | null {
  const ext = filename.toLowerCase().split('.').pop() ?? ''
  if (ext === 'csv') return csvDescription(text, ',', 'CSV')
  if (ext === 'tsv') return csvDescription(text, '\t', 'TSV')
  const lines = text.split(/\r?\n/, 400)
  const heading = lines.slice(0, 40).find((l) => /^#{1,6}\s+\S/.test(l) && letters(l) >= 2)
  if (heading && !/\.(py|sh|bash|zsh|rb|pl|r|yaml|yml|toml|ini|cfg|conf|env)$/i.test(filename)) return clip(heading.replace(/^#+\s*/, '').replace(/\s*#+\s*$/, ''))
  for (const line of lines.slice(0, 30)) {
    if (NOISE.test(line)) continue
    const comment = commentText(line)
    if (comment) return clip(comment)
  }
  const first = lines.find((l) => !NOISE.test(l) && letters(l) >= 3)
  return first ? clip(first) : null
}

/** A PDF: the first line of its text with words in it (usually its title). */
export function describePdf(pages: readonly string[]): string | null {
  for (const page of pages.slice(0, 3)) {
    const line = page.split(/\r?\n/).find((l) => letters(l) >= 3)
    if (line) return clip(line)
  }
  return null
}

/** An image: its size, and what the user wrote with it, which is usually what it shows. */
export function describeImage(image: { width?: number; height?: number }, messageText: string): string {
  const size = image.width && image.height ? `${image.width}×${image.height} image` : 'Image'
  const said = messageText.trim()
  return said ? clip(`${size}, sent with “${clip(said, 80)}”`) : size
}
