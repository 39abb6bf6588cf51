import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { resolveChatSettings, resolveChatWindow } from './chat-settings'
import { DEFAULT_SETTINGS } from './settings'

const inherit = {
  provider: null,
  modelId: null,
  strategy: null,
  autoCompress: null,
  recall: null,
  thresholdPercent: null,
  contextWindow: null,
  maxOutput: null
}

describe('resolveChatSettings', () => {
  it('takes every setting a chat leaves open from the global settings', () => {
    expect(resolveChatSettings(inherit, DEFAULT_SETTINGS)).toEqual({
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      strategy: 'rolling',
      autoCompress: true,
      recall: true,
      reviewSummaries: false,
      summarizer: 'llm',
      threshold: { percent: 95, source: 'global' },
      contextWindow: null,
      maxOutput: null,
      own: { strategy: false, autoCompress: false, recall: false, reviewSummaries: false }
    })
  })

  it('keeps the chat’s own choices, false ones included, and its model’s threshold', () => {
    const chat = {
      ...inherit,
      provider: 'anthropic' as const,
      modelId: 'claude-sonnet-4-5',
      autoCompress: false,
      recall: false,
      reviewSummaries: true,
      strategy: 'tiered' as const
    }
    const settings = { ...DEFAULT_SETTINGS, modelThresholds: { 'anthropic:claude-sonnet-4-5': 80 } }
    expect(resolveChatSettings(chat, settings)).toMatchObject({
      provider: 'anthropic',
      strategy: 'tiered',
      autoCompress: false,
      recall: false,
      reviewSummaries: true,
      threshold: { percent: 80, source: 'model' },
      own: { strategy: true, autoCompress: true, recall: true, reviewSummaries: true }
    })
    expect(resolveChatSettings({ ...chat, thresholdPercent: 70 }, settings).threshold).toEqual({
      percent: 70,
      source: 'chat'
    })
  })
})

describe('the window a chat works with', () => {
  it('is its own where it set one, else its model’s, and never reserves more than half for the reply', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: null }),
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: null }),
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        (contextWindow, maxOutput, modelWindow, modelOutput) => {
          const w = resolveChatWindow(
            { contextWindow, maxOutput },
            { contextWindow: modelWindow, maxOutput: modelOutput }
          )
          expect(w.contextWindow).toBe(contextWindow ?? modelWindow)
          expect(w.own).toBe(contextWindow !== null)
          expect(w.maxOutput).toBeLessThanOrEqual(Math.floor(w.contextWindow / 2))
          expect(w.maxOutput).toBe(Math.min(maxOutput ?? modelOutput, Math.floor(w.contextWindow / 2)))
        }
      )
    )
  })
})
