import { importanceOutcome, tieredOutcome, type StrategyOutcome } from '../engine/strategies/strategy-outcome'
import type { EngineMessage } from '../engine/types'
import type { ModelSpec } from '../models/catalog'
import { countMessage } from '../tokens/message-tokens'

/** A stored message as a strategy sees it; without its text the thread reads the text itself. */
export type StrategyJobMessage = Omit<EngineMessage, 'text'> & { text?: string }

/** One run of the tiered or importance strategy over a whole history: plain, cloneable data. */
export interface StrategyJob {
  spec: ModelSpec
  strategy: 'tiered' | 'importance'
  messages: StrategyJobMessage[]
  historyTokens: number
  retentionTokens: number
  /** Messages after which the user started a new topic by hand. */
  userBoundaries: string[]
}

/**
 * Decides what the strategy keeps, counting as the conversation counts a text (one user message of
 * the model: Conversation.countText), so a threaded run equals an inline one.
 */
export function runStrategyJob(job: StrategyJob, readTexts?: (ids: string[]) => Map<string, string>): StrategyOutcome {
  const unread = job.messages.flatMap((m) => (m.text === undefined ? [m.id] : []))
  const texts = unread.length > 0 && readTexts ? readTexts(unread) : new Map<string, string>()
  const messages: EngineMessage[] = job.messages.map((m) => {
    const text = m.text ?? texts.get(m.id)
    // A message gone from the database since the plan: the caller runs the strategy from its own copy.
    if (text === undefined) throw new Error(`Message ${m.id} was not found.`)
    return { ...m, text }
  })
  const countTokens = (text: string) => countMessage({ role: 'user', parts: [{ type: 'text', text }] }, job.spec).tokens
  return job.strategy === 'tiered'
    ? tieredOutcome({ messages, historyTokens: job.historyTokens, countTokens, userBoundaries: new Set(job.userBoundaries) })
    : importanceOutcome({ messages, historyTokens: job.historyTokens, countTokens, retentionTokens: job.retentionTokens })
}
