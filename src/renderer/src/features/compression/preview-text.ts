import { formatTokens } from '../../lib/format-tokens'

/** "41.2k → 6.3k tokens" */
export function reductionText(before: number, after: number): string {
  return `${formatTokens(before)} → ${formatTokens(after)} tokens`
}

/** The first characters of a summary as plain words: Markdown marks would only be noise in a toast. */
export function plainPreview(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
}
