import type { EngineRole } from './types'

/**
 * Pinned messages older than the summary's cutoff travel as one labelled system message right after
 * the summary: their text word for word, oldest first. One block (not the turns themselves) keeps the
 * user/assistant alternation of the retained history valid, and the label tells the model why these
 * sit out of order.
 */
export const PINNED_PREFIX =
  'Pinned messages (the user pinned these earlier messages; they are quoted word for word, oldest first):'

export interface PinnedText {
  role: EngineRole
  text: string
}

/** The block's text, or '' when nothing is pinned. */
export function pinnedBlockText(pins: readonly PinnedText[]): string {
  if (pins.length === 0) return ''
  return [PINNED_PREFIX, ...pins.map((p) => `--- ${p.role} ---\n${p.text}`)].join('\n\n')
}

/** Whole percent of the usable budget that `tokens` take, rounded up (so "25%" never hides 25.4%). */
export function pinSharePercent(tokens: number, usable: number): number {
  return usable > 0 ? Math.ceil((tokens / usable) * 100) : 100
}
