import { describe, expect, it } from 'vitest'
import { resolveChatSettings } from './chat-settings'
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
