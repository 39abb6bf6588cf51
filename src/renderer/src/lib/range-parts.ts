import type { SnippetPart } from './highlight'

/**
 * Text split at the given [start, end) ranges into plain and marked parts. The ranges come from the
 * server, so they are not trusted: out-of-bounds ends are clamped, and overlapping or unordered
 * ranges are merged, so every character appears exactly once.
 */
export function rangeParts(text: string, ranges: ReadonlyArray<readonly [number, number]>): SnippetPart[] {
  const clamp = (n: number) => Math.min(Math.max(Math.trunc(n) || 0, 0), text.length)
  const sorted = ranges
    .map(([start, end]) => [clamp(start), clamp(end)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0])
  const parts: SnippetPart[] = []
  let at = 0
  for (const [start, end] of sorted) {
    if (end <= at) continue
    const from = Math.max(start, at)
    if (from > at) parts.push({ text: text.slice(at, from), match: false })
    const last = parts.at(-1)
    // Touching ranges make one mark.
    if (last?.match) last.text += text.slice(from, end)
    else parts.push({ text: text.slice(from, end), match: true })
    at = end
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false })
  return parts
}
