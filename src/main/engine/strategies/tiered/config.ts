/**
 * ADR 033's `conversation.history.compression` block, with the two Agent Zero constants the ADR leaves
 * implicit (TOPIC_COMPRESS_RATIO and LARGE_MESSAGE_TO_TOPIC_RATIO). `model` is not here: the
 * summarization model is the chat's summarizer setting.
 */
export interface TieredConfig {
  enabled: boolean
  /** Shares of the history budget; they must sum to 1. */
  tiers: { currentTopic: number; historicalTopics: number; bulkArchives: number }
  /** Messages longer than this (characters) are large (escalation step 1). */
  maxMessageChars: number
  topicSummaryTokens: number
  bulkSummaryTokens: number
  /** Topics merged into one bulk (the oldest first). */
  bulkMergeSize: number
  topicBoundary: {
    /** A gap longer than this between messages starts a new topic; 0 turns it off. */
    silenceMinutes: number
    /** The current topic is sealed once it passes this share of its allocation. */
    tokenThreshold: number
  }
  /** Agent Zero TOPIC_COMPRESS_RATIO: the share of a topic's middle summarized by one attention round. */
  attentionRatio: number
  /** Agent Zero LARGE_MESSAGE_TO_TOPIC_RATIO: a message above this share of its tier's allocation is large. */
  largeMessageRatio: number
}

export const DEFAULT_TIERED_CONFIG: TieredConfig = {
  enabled: true,
  tiers: { currentTopic: 0.5, historicalTopics: 0.3, bulkArchives: 0.2 },
  maxMessageChars: 2000,
  topicSummaryTokens: 200,
  bulkSummaryTokens: 300,
  bulkMergeSize: 3,
  topicBoundary: { silenceMinutes: 30, tokenThreshold: 0.6 },
  attentionRatio: 0.65,
  largeMessageRatio: 0.25
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)

/** Every problem with a configuration, as sentences for the settings form; empty when valid. */
export function validateTieredConfig(c: TieredConfig): string[] {
  const errors: string[] = []
  const share = (name: string, v: unknown, allowZero: boolean) => {
    if (!finite(v) || v > 1 || (allowZero ? v < 0 : v <= 0)) {
      errors.push(`${name} must be a number ${allowZero ? 'from 0' : 'above 0'} to 1.`)
    }
  }
  const whole = (name: string, v: unknown, min: number) => {
    if (!finite(v) || !Number.isInteger(v) || v < min) errors.push(`${name} must be a whole number of at least ${min}.`)
  }
  share('tiers.currentTopic', c.tiers.currentTopic, false)
  share('tiers.historicalTopics', c.tiers.historicalTopics, true)
  share('tiers.bulkArchives', c.tiers.bulkArchives, true)
  const sum = c.tiers.currentTopic + c.tiers.historicalTopics + c.tiers.bulkArchives
  if (finite(sum) && Math.abs(sum - 1) > 1e-6)
    errors.push(`The tier shares must sum to 1 (they sum to ${Number(sum.toFixed(4))}).`)
  whole('maxMessageChars', c.maxMessageChars, 100)
  whole('topicSummaryTokens', c.topicSummaryTokens, 1)
  whole('bulkSummaryTokens', c.bulkSummaryTokens, 1)
  whole('bulkMergeSize', c.bulkMergeSize, 1)
  if (!finite(c.topicBoundary.silenceMinutes) || c.topicBoundary.silenceMinutes < 0) {
    errors.push('topicBoundary.silenceMinutes must be 0 (off) or more.')
  }
  share('topicBoundary.tokenThreshold', c.topicBoundary.tokenThreshold, false)
  share('attentionRatio', c.attentionRatio, false)
  share('largeMessageRatio', c.largeMessageRatio, false)
  return errors
}
