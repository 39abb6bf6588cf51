import { SUMMARY_PREFIX } from '../engine/build-context'
import { summarizeExtractive } from '../engine/extractive/summarize-extractive'
import type { EngineRole } from '../engine/types'
import type { ModelSpec } from '../models/catalog'
import { countMessage } from '../tokens/message-tokens'
import type { StrategyOutcome } from '../engine/strategies/strategy-outcome'
import type { StrategyJob } from './strategy-job'
import type { DetailsJob } from './details-job'

/** A message to summarize: its text, or its id for the thread to read the text from the database itself. */
export type JobMessage = { role: EngineRole; createdAt?: number } & ({ text: string } | { id: string })

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

/** What the thread is asked to do: write a summary, or run a strategy over a whole history. */
export type ThreadJob = { kind: 'summary'; job: ExtractiveJob } | { kind: 'strategy'; job: StrategyJob } | { kind: 'details'; job: DetailsJob }

/** The thread's answer: the summary text, or the strategy's outcome. */
export type ExtractiveOutcome = { id: number; result: string | StrategyOutcome } | { id: number; error: string }

/** Marks the threads this module starts, so the entry never answers another thread's messages. */
export const EXTRACTIVE_WORKER = 'distill-extractive-summaries'

/** What a summary thread starts with. */
export interface ExtractiveWorkerData {
  role: typeof EXTRACTIVE_WORKER
  /** The database the thread reads message text from; texts come with each job when absent. */
  dbFile?: string
}

/**
 * Writes the summary, counting as the conversation counts a summary (its system message, prefix
 * included: Conversation.summaryTokensOf), so a threaded run equals an inline one.
 */
export function runExtractiveJob(job: ExtractiveJob, readTexts?: ReadTexts): string {
  const messages = withTextsRead(job.request.messages, readTexts).map((m) => ({ role: m.role, createdAt: m.createdAt, text: m.text }))
  return summarizeExtractive({ ...job.request, messages, countTokens: summaryCounter(job.spec) })
}

/** Reads messages' text by id (on the thread, from its own connection). */
export type ReadTexts = (ids: string[]) => Map<string, string>

/** Counts a summary text as a request carries it (its system message, prefix included: Conversation.summaryTokensOf). */
export function summaryCounter(spec: ModelSpec): (text: string) => number {
  return (text) => countMessage({ role: 'system', parts: [{ type: 'text', text: SUMMARY_PREFIX + text }] }, spec).tokens
}

/** The messages with their text: given with them, or read by id in one go. */
export function withTextsRead<M extends { text: string } | { id: string }>(messages: readonly M[], readTexts?: ReadTexts): Array<M & { text: string }> {
  const ids = messages.flatMap((m) => ('text' in m && m.text !== undefined ? [] : 'id' in m ? [m.id] : []))
  const texts = ids.length > 0 && readTexts ? readTexts(ids) : new Map<string, string>()
  return messages.map((m) => {
    const text = 'text' in m && m.text !== undefined ? m.text : 'id' in m ? texts.get(m.id) : undefined
    // A message gone from the database since the plan: the caller does the work from its own copy.
    if (text === undefined) throw new Error(`Message ${'id' in m ? m.id : ''} was not found.`)
    return { ...m, text }
  })
}
