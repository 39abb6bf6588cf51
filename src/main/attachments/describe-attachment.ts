/**
 * One line of what an attached file was, made from its content without a model call, for the
 * compression manifest: once a file has left the active context, its name alone rarely says enough.
 */

import { withoutHiddenCharacters } from '../../shared/domain/attachments'

/** A description is a line in a list: at most this many characters. */
export const DESCRIPTION_MAX = 120

function clip(text: string, max = DESCRIPTION_MAX): string {
  const line = withoutHiddenCharacters(text.replace(/\s+/g, ' ')).trim()
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`
}

/** What a description reads of a file: its first lines, each cut short (a 5 MB line is no title). */
const HEAD_CHARS = 64 * 1024
const LINE_CHARS = 2000
const letters = (line: string) => (line.slice(0, LINE_CHARS).match(/\p{L}/gu) ?? []).length

/** Lines with something in them, counted without splitting the whole file. */
function filledLines(text: string): number {
  let n = 0
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at)
    const stop = end < 0 ? text.length : end
    if (/\S/.test(text.slice(at, Math.min(stop, at + LINE_CHARS)))) n++
    at = stop + 1
  }
  return n
}

/** A comment's words without its markers: `// Parses dates`, `# Config`, `/** Loads … *\/`, `-- Schema`. */
function commentText(line: string): string | null {
  const m = /^\s*(?:\/\/+|#+(?!!)|\/\*+|\*+(?!\/)|--|<!--|;+|%+|"""|''')\s*(.*?)\s*(?:\*\/|-->|"""|''')?\s*$/.exec(line)
  return m && letters(m[1]!) >= 3 ? m[1]! : null
}

/** Lines a reader skips: shebangs, encodings, lone brackets, front-matter fences, "use strict". */
const NOISE = /^\s*(#!|# -\*-|['"]use strict['"]|[-=_*~`#{}()[\];,.<>/\\|]+\s*$)/

function csvDescription(text: string, separator: string, kind: string): string | null {
  const first = text
    .slice(0, HEAD_CHARS)
    .split(/\r?\n/)
    .find((l) => l.trim() !== '')
  const header = first
    ?.slice(0, LINE_CHARS)
    .split(separator)
    .map((c) => c.trim().replace(/^"|"$/g, ''))
  if (!header || header.length < 2) return null
  const rows = filledLines(text) - 1
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
  const lines = text
    .slice(0, HEAD_CHARS)
    .split(/\r?\n/, 400)
    .map((l) => l.slice(0, LINE_CHARS))
  const heading = lines.slice(0, 40).find((l) => /^#{1,6}\s+\S/.test(l) && letters(l) >= 2)
  if (heading && !/\.(py|sh|bash|zsh|rb|pl|r|yaml|yml|toml|ini|cfg|conf|env)$/i.test(filename))
    return clip(heading.replace(/^#+\s*/, '').replace(/\s*#+\s*$/, ''))
  for (const line of lines.slice(0, 30)) {
    if (NOISE.test(line)) continue
    const comment = commentText(line)
    if (comment) return clip(comment)
  }
  const first = lines.find((l) => !NOISE.test(l) && letters(l) >= 3)
  return first ? clip(first) : null
}

/**
 * A PDF: the first line of its text with words in it (usually its title); when only the first
 * pages of `total` were read (pdf-thread.ts limits), the line says so first.
 */
export function describePdf(pages: readonly string[], total = pages.length): string | null {
  const partial = total > pages.length ? `Text read from ${pages.length} of ${total} pages` : null
  for (const page of pages.slice(0, 3)) {
    const line = page
      .slice(0, HEAD_CHARS)
      .split(/\r?\n/)
      .find((l) => letters(l) >= 3)
    if (line) return clip(partial ? `${partial}: ${line}` : line)
  }
  return partial
}

/** An image: its size, and what the user wrote with it, which is usually what it shows. */
export function describeImage(image: { width?: number; height?: number }, messageText: string): string {
  const size = image.width && image.height ? `${image.width}×${image.height} image` : 'Image'
  const said = messageText.trim()
  return said ? clip(`${size}, sent with “${clip(said, 80)}”`) : size
}
