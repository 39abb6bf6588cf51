import { describe, expect, it } from 'vitest'
import type { ModelInfo, ProviderStatus } from '../../../../shared/domain/provider'
import { groupModels, modelOptionLabel } from './model-options'

const model = (
  provider: ModelInfo['provider'],
  id: string,
  label: string,
  contextWindow: number,
  source: ModelInfo['source'] = 'catalog'
): ModelInfo => ({
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
  const detected: ModelInfo = {
    ...model('openai-compatible', 'qwen3:8b', 'qwen3:8b', 32_768, 'server'),
    windowSource: 'server',
    windowFrom: 'Ollama, loaded model (/api/ps)'
  }
  const models = [
    model('openai-compatible', 'llama3.2:latest', 'llama3.2:latest', 4096, 'server'),
    detected,
    model('anthropic', 'claude-sonnet-4-5', 'Claude Sonnet 4.5', 200_000),
    { ...model('openai', 'gpt-4o-mini', 'GPT-4o mini', 128_000), vision: true }
  ]

  it('groups by provider in a fixed order and shows windows, the detected ones too', () => {
    const groups = groupModels(models, [], null)
    expect(groups.map((g) => g.label)).toEqual(['OpenAI', 'Anthropic', 'Local / OpenAI-compatible'])
    expect(groups[0]!.options).toEqual([
      {
        value: 'openai:gpt-4o-mini',
        provider: 'openai',
        modelId: 'gpt-4o-mini',
        name: 'GPT-4o mini',
        label: 'GPT-4o mini · 128k',
        window: '128k',
        vision: true
      }
    ])
    expect(modelOptionLabel(models[0]!)).toBe('llama3.2:latest · window unknown')
    expect(modelOptionLabel(detected)).toBe('qwen3:8b · 32.8k')
    expect(groups[2]!.options[1]).toMatchObject({ window: '32.8k', windowFrom: 'Ollama, loaded model (/api/ps)' })
  })

  it('puts the providers that can chat first and marks the others', () => {
    const groups = groupModels(
      models,
      [status('openai', false), status('anthropic', false), status('openai-compatible', true)],
      null
    )
    expect(groups.map((g) => g.label)).toEqual([
      'Local / OpenAI-compatible',
      'OpenAI — needs key',
      'Anthropic — needs key'
    ])
    expect(groups.map((g) => g.ready)).toEqual([true, false, false])
  })

  it('keeps the current model even when no list names it', () => {
    const groups = groupModels(models, [], { provider: 'google', modelId: 'gemini-9-ultra' })
    expect(groups.find((g) => g.provider === 'google')!.options).toMatchObject([
      { value: 'google:gemini-9-ultra', label: 'gemini-9-ultra' }
    ])
  })
})
