import { withMissingDetails } from '../../engine/summary-details'
import { speakerNames } from '../../engine/extractive/speaker-labels'
import type { ModelSpec } from '../../models/catalog'
import { summaryCounter, withTextsRead, type JobMessage, type ReadTexts } from './job-texts'

/** A model summary to check against the span it summarized: plain, cloneable data. */
export interface DetailsJob {
  spec: ModelSpec
  summary: string
  targetTokens: number
  previousSummary?: string
  messages: JobMessage[]
}

const LABEL: Partial<Record<string, string>> = { user: 'User', assistant: 'Assistant' }

/**
 * The summary with the names, numbers and dates of the span it left out as a Details list, within
 * its budget (engine/summary-details.ts); counted as the conversation counts a summary.
 */
export function runDetailsJob(
  job: DetailsJob,
  readTexts?: ReadTexts,
  countTokens: (text: string) => number = summaryCounter(job.spec)
): string {
  const messages = withTextsRead(job.messages, readTexts)
  // People by name where the chat names them, as the offline summary calls them.
  const names: Partial<Record<string, string>> = { ...speakerNames(messages) }
  const sources = [
    { text: job.previousSummary ?? '' },
    ...messages.map((m) => ({ label: names[m.role] ?? LABEL[m.role], text: m.text }))
  ]
  return withMissingDetails({
    sources,
    summary: job.summary,
    targetTokens: job.targetTokens,
    countTokens
  })
}
