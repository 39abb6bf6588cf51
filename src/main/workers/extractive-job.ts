import { summarizeExtractive } from '../engine/extractive/summarize-extractive'
import type { ModelSpec } from '../models/catalog'
import { summaryCounter, withTextsRead, type JobMessage, type ReadTexts } from './job-texts'

/** One extractive summary to write off the main thread: plain, cloneable data. */
export interface ExtractiveJob {
  spec: ModelSpec
  request: {
    previousSummary?: string
    messages: JobMessage[]
    targetTokens: number
    focus?: string
  }
}

/**
 * Writes the summary, counting as the conversation counts a summary (its system message, prefix
 * included: Conversation.summaryTokensOf), so a threaded run equals an inline one.
 */
export function runExtractiveJob(job: ExtractiveJob, readTexts?: ReadTexts): string {
  const messages = withTextsRead(job.request.messages, readTexts).map((m) => ({
    role: m.role,
    createdAt: m.createdAt,
    text: m.text
  }))
  return summarizeExtractive({ ...job.request, messages, countTokens: summaryCounter(job.spec) })
}
