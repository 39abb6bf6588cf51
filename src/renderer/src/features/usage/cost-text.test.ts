import { describe, expect, it } from 'vitest'
import type { ChatCost, TokenUsage } from '../../../../shared/contract'
import { approxUsd, cacheSavedUsd, chatTotal, lastReplyLine, uncachedTokens } from './cost-text'

const none: TokenUsage = {
  requests: 0,
  inputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  costUsd: 0
}

function usage(overrides: Partial<TokenUsage>): TokenUsage {
  return { ...none, requests: 1, ...overrides }
}

function cost(overrides: Partial<ChatCost>): ChatCost {
  return {
    sessionId: 's',
    modelLabel: 'Claude Sonnet 4.5',
    lastReply: null,
    replies: none,
    summaries: none,
    withoutCacheUsd: 0,
    cacheReported: true,
    ...overrides
  }
}

describe('lastReplyLine', () => {
  it('says nothing before a reply has reported its usage', () => {
    expect(lastReplyLine(undefined)).toBeNull()
    expect(lastReplyLine(cost({}))).toBeNull()
  })

  it('says how much of the input came from the cache, and about what it cost', () => {
    const lastReply = usage({ inputTokens: 11_930, cacheReadTokens: 11_204, outputTokens: 80, costUsd: 0.00412 })
    expect(lastReplyLine(cost({ lastReply }))).toBe(
      'Last reply: 11,204 of 11,930 input tokens from the cache · ≈ $0.0041'
    )
  })

  it('gives no price where the model’s prices are unknown', () => {
    const lastReply = usage({ inputTokens: 2_000, cacheReadTokens: 1_024, costUsd: null })
    expect(lastReplyLine(cost({ lastReply }))).toBe('Last reply: 1,024 of 2,000 input tokens from the cache')
  })

  it('says when nothing came from the cache, and what was written to it for the next request', () => {
    expect(lastReplyLine(cost({ lastReply: usage({ inputTokens: 900, costUsd: 0.0027 }) }))).toBe(
      'Last reply: 900 input tokens, none from the cache · ≈ $0.0027'
    )
    expect(
      lastReplyLine(cost({ lastReply: usage({ inputTokens: 3_000, cacheWriteTokens: 2_900, costUsd: 0.012 }) }))
    ).toBe('Last reply: 3,000 input tokens, none from the cache (2,900 written to it) · ≈ $0.01')
  })

  it('says when the provider did not report its cache', () => {
    const lastReply = usage({ inputTokens: 1, costUsd: null })
    expect(lastReplyLine(cost({ lastReply, cacheReported: false }))).toBe(
      'Last reply: 1 input token; the provider did not report its cache'
    )
  })
})

describe('the inspector’s sums', () => {
  it('counts the model summaries in the chat, priced only when both are', () => {
    const replies = usage({
      requests: 3,
      inputTokens: 30_000,
      cacheReadTokens: 20_000,
      cacheWriteTokens: 5_000,
      outputTokens: 600,
      costUsd: 0.05
    })
    const summaries = usage({ requests: 1, inputTokens: 8_000, outputTokens: 500, costUsd: 0.03 })
    expect(chatTotal(cost({ replies, summaries }))).toEqual({
      requests: 4,
      inputTokens: 38_000,
      cacheReadTokens: 20_000,
      cacheWriteTokens: 5_000,
      outputTokens: 1_100,
      costUsd: 0.08
    })
    expect(chatTotal(cost({ replies, summaries: { ...summaries, costUsd: null } })).costUsd).toBeNull()
    // No summaries: their missing price does not hide the replies'.
    expect(chatTotal(cost({ replies, summaries: { ...none, costUsd: null } })).costUsd).toBe(0.05)
    expect(uncachedTokens(replies)).toBe(5_000)
  })

  it('says what the cache saved only when it saved something', () => {
    const replies = usage({ costUsd: 0.05 })
    expect(cacheSavedUsd(cost({ replies, withoutCacheUsd: 0.11 }))).toBeCloseTo(0.06, 9)
    expect(cacheSavedUsd(cost({ replies, withoutCacheUsd: 0.04 }))).toBeNull()
    expect(cacheSavedUsd(cost({ replies, withoutCacheUsd: null }))).toBeNull()
    expect(cacheSavedUsd(cost({ replies: { ...replies, costUsd: null }, withoutCacheUsd: 0.11 }))).toBeNull()
  })

  it('says a tiny price as under the smallest amount shown', () => {
    expect(approxUsd(0.00004)).toBe('under $0.0001')
    expect(approxUsd(1.2)).toBe('≈ $1.20')
  })
})
