import { rangeParts } from '../../../lib/range-parts'

/** Text with its ranges in <mark>: React elements only, so nothing in the text is ever read as markup. */
export function HighlightedText({ text, ranges }: { text: string; ranges: ReadonlyArray<readonly [number, number]> }) {
  return rangeParts(text, ranges).map((part, i) =>
    part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>
  )
}
