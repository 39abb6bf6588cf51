import type { CountTokens } from './types'

/** The marker left where the middle of a large message was cut: N is the number of removed characters. */
export const truncationMarker = (removed: number) => `\n[...${removed}...]\n`

/**
 * Keeps the start and the end of a text and cuts the middle (Agent Zero's large-message rule), so
 * that countTokens(result) ≤ maxTokens. The stored original is never touched; this is only what the
 * model is shown. Returns the text unchanged when it already fits.
 */
export function truncateMiddle(
  text: string,
  maxTokens: number,
  countTokens: CountTokens,
  /** countTokens(text), when the caller has it: a long message takes tens of ms to count. */
  counted?: number
): string {
  const whole = counted ?? countTokens(text)
  if (whole <= maxTokens) return text
  const empty = countTokens(truncationMarker(text.length))
  if (maxTokens <= empty) return truncationMarker(text.length).trim()
  // Start from the proportional guess and tighten until it fits; each round shrinks the kept part.
  let keep = Math.floor((text.length * (maxTokens - empty)) / Math.max(1, whole))
  for (let round = 0; round < 30; round++) {
    const head = Math.ceil(keep * 0.6)
    const tail = keep - head
    const candidate =
      text.slice(0, head) + truncationMarker(text.length - keep) + (tail > 0 ? text.slice(text.length - tail) : '')
    if (countTokens(candidate) <= maxTokens) return candidate
    keep = Math.floor(keep * 0.85)
    if (keep <= 0) break
  }
  return truncationMarker(text.length).trim()
}
