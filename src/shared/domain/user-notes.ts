import type { SummaryContent } from './snapshot'

/** Heads the user's own text in a summary that carries it forward. */
export const USER_NOTES_HEADING = 'Notes the user wrote into an earlier summary (kept as written):'

/** A summary's text with the user's notes after it, verbatim. */
export function withUserNotes(summary: string, notes: string | undefined): string {
  if (!notes?.trim()) return summary
  const block = `${USER_NOTES_HEADING}\n\n${notes.trim()}`
  return summary.trim() ? `${summary.trimEnd()}\n\n${block}` : block
}

/**
 * What a cascade may hand to the summarizer of a summary: its text without the user's notes, which
 * the new summary carries as they are (an edited summary is all the user's: nothing is left).
 */
export function summarizableText(content: Pick<SummaryContent, 'summaryText' | 'userNotes'>): string | undefined {
  const { summaryText, userNotes } = content
  if (!userNotes?.trim()) return summaryText
  if (summaryText.trim() === userNotes.trim()) return undefined
  const block = withUserNotes('', userNotes)
  const i = summaryText.lastIndexOf(block)
  return (i >= 0 ? summaryText.slice(0, i) : summaryText).trim() || undefined
}
