import { summarizeExtractive } from '../../engine/extractive/summarize-extractive'
import type { ModelSpec } from '../../models/catalog'
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
 * Text per pass over a long span. The summarizer's working set is about ten times the text it scores
 * (a 10,000-message span of 6.5 MB took the summary thread to ~90 MB), so a longer span is summarized in
 * passes, each carrying the summary so far as rolling compression does: memory stays flat in the span's
 * length, and a span shorter than this (every compression but the first of a long import) is one pass.
 */
export const PASS_CHARS = 1_000_000
/** Messages read from the database at a time while a pass is gathered. */
const READ_BATCH = 500

/**
 * Writes the summary, counting as the conversation counts a summary (its system message, prefix
 * included: Conversation.summaryTokensOf), so a threaded run equals an inline one.
 */
export function runExtractiveJob(
  job: ExtractiveJob,
  readTexts?: ReadTexts,
  countTokens: (text: string) => number = summaryCounter(job.spec),
  /** After each pass but the last: messages summarized so far, of all (a long span's progress). */
  onPass?: (done: number, total: number) => void,
  /**
   * Counts many texts in one go (on a thread: one round trip to the main thread's counter instead of
   * one per text); undefined when it could not. Each count is the one `countTokens` gives.
   */
  countAll?: (texts: string[]) => number[] | undefined
): string {
  const all = job.request.messages
  let summary = job.request.previousSummary
  let pass: Array<{ role: JobMessage['role']; createdAt?: number; text: string }> = []
  let chars = 0
  const known = new Map<string, number>()
  const count = countAll ? (text: string) => known.get(text) ?? countTokens(text) : countTokens
  const prefetch = countAll
    ? (texts: string[]) => {
        const missing = [...new Set(texts)].filter((t) => !known.has(t))
        countAll(missing)?.forEach((n, i) => known.set(missing[i]!, n))
      }
    : undefined
  const write = () => {
    summary = summarizeExtractive({
      ...job.request,
      previousSummary: summary,
      messages: pass,
      countTokens: count,
      ...(prefetch ? { prefetch } : {})
    })
    pass = []
    chars = 0
  }
  let read = 0
  for (let i = 0; i < all.length; i += READ_BATCH) {
    for (const m of withTextsRead(all.slice(i, i + READ_BATCH), readTexts)) {
      pass.push({ role: m.role, createdAt: m.createdAt, text: m.text })
      chars += m.text.length
      read++
      if (chars >= PASS_CHARS) {
        write()
        onPass?.(read, all.length)
      }
    }
  }
  if (pass.length > 0 || summary === job.request.previousSummary) write()
  return withSpanCount(summary!, job.request.previousSummary, all.length)
}

/**
 * A summary that carries a model's (whose header states no count) says "…and N more messages": after
 * several passes N is the last pass's; it is the whole span's.
 */
function withSpanCount(summary: string, previous: string | undefined, messages: number): string {
  if (!previous) return summary
  return summary.replace(
    /^(Summary of the earlier conversation and )\d+( more messages?)/,
    (_, a: string) => `${a}${messages} more message${messages === 1 ? '' : 's'}`
  )
}
