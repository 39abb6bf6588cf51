import { importanceOutcome, tieredOutcome, type StrategyOutcome } from '../../engine/strategies/strategy-outcome'
import type { EngineMessage } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { countMessage } from '../../tokens/message-tokens'
import { withTextsRead, type ReadTexts } from './job-texts'

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
export function runStrategyJob(job: StrategyJob, readTexts?: ReadTexts): StrategyOutcome {
  const messages: EngineMessage[] = withTextsRead(job.messages, readTexts)
  const countTokens = (text: string) => countMessage({ role: 'user', parts: [{ type: 'text', text }] }, job.spec).tokens
  return job.strategy === 'tiered'
    ? tieredOutcome({
        messages,
        historyTokens: job.historyTokens,
        countTokens,
        userBoundaries: new Set(job.userBoundaries)
      })
    : importanceOutcome({
        messages,
        historyTokens: job.historyTokens,
        countTokens,
        retentionTokens: job.retentionTokens
      })
}
