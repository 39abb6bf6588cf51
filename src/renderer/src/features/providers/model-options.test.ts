import { describe, expect, it } from 'vitest'
import type { ModelInfo, ProviderStatus } from '../../../../shared/domain/provider'
import { groupModels, modelOptionLabel } from './model-options'

const model = (provider: ModelInfo['provider'], id: string, label: string, contextWindow: number, source: ModelInfo['source'] = 'catalog'): ModelInfo => ({
  provider,
  id,
  label,
  contextWindow,
  maxOutput: 4096,
  tokenizer: 'estimate',
  source,
  windowSource: source === 'server' ? 'assumed' : source
})

const status = (id: ProviderStatus['id'], ready: boolean): ProviderStatus => ({
  id,
  label: id,
  keySet: ready,
  keyHint: ready ? '0001' : null,
  keySource: ready ? 'environment' : null,
  check: { state: 'unchecked', at: null, latencyMs: null, models: null, message: null },
  baseURL: null,
  baseURLSource: null,
  ready
})

describe('model picker options', () => {
  const models = [
    model('openai-compatible', 'llama3.2:latest', 'llama3.2:latest', 8192, 'server'),
    model('anthropic', 'claude-sonnet-4-5', 'Claude Sonnet 4.5', 200_000),
    model('openai', 'gpt-4o-mini', 'GPT-4o mini', 128_000)
  ]

  it('groups by provider in a fixed order and shows windows', () => {
    const groups = groupModels(models, [], null)
    expect(groups.map((g) => g.label)).toEqual(['OpenAI', 'Anthropic', 'Local / OpenAI-compatible'])
    expect(groups[0]!.options).toEqual([{ value: 'openai:gpt-4o-mini', label: 'GPT-4o mini · 128k' }])
    expect(modelOptionLabel(models[0]!)).toBe('llama3.2:latest · window unknown')
  })

  it('marks providers that cannot chat yet', () => {
    const groups = groupModels(models, [status('openai', true), status('anthropic', false), status('openai-compatible', false)], null)
    expect(groups.map((g) => g.label)).toEqual(['OpenAI', 'Anthropic — needs key', 'Local / OpenAI-compatible — needs address'])
    expect(groups[1]!.options[0]!.label).toBe('Claude Sonnet 4.5 · 200k (needs key)')
  })

  it('keeps the current model even when no list names it', () => {
    const groups = groupModels(models, [], { provider: 'google', modelId: 'gemini-9-ultra' })
    expect(groups.find((g) => g.provider === 'google')!.options).toEqual([{ value: 'google:gemini-9-ultra', label: 'gemini-9-ultra' }])
  })
})
