import { describe, expect, it } from 'vitest'
import { CATALOG, listModels, modelSpecSchema, resolveModel, userModelSchema } from './catalog'

describe('model catalog', () => {
  it('lists every supported model with its published limits', () => {
    const ids = CATALOG.map((m) => `${m.provider}:${m.id}`)
    for (const id of [
      'openai:gpt-5',
      'openai:gpt-5-mini',
      'openai:gpt-5-nano',
      'openai:gpt-4.1',
      'openai:gpt-4.1-mini',
      'openai:gpt-4.1-nano',
      'openai:gpt-4o',
      'openai:gpt-4o-mini',
      'openai:o3',
      'openai:o4-mini',
      'openai:gpt-4-turbo',
      'openai:gpt-4',
      'openai:gpt-3.5-turbo',
      'anthropic:claude-opus-4-1',
      'anthropic:claude-opus-4-0',
      'anthropic:claude-sonnet-4-5',
      'anthropic:claude-sonnet-4-0',
      'anthropic:claude-haiku-4-5',
      'anthropic:claude-3-5-haiku-latest',
      'google:gemini-2.5-pro',
      'google:gemini-2.5-flash',
      'google:gemini-2.5-flash-lite'
    ]) {
      expect(ids).toContain(id)
    }
    expect(resolveModel('openai', 'gpt-4o')).toMatchObject({
      contextWindow: 128_000,
      maxOutput: 16_384,
      tokenizer: 'o200k_base'
    })
    expect(resolveModel('openai', 'gpt-4.1')).toMatchObject({ contextWindow: 1_047_576, maxOutput: 32_768 })
    expect(resolveModel('openai', 'gpt-5')).toMatchObject({ contextWindow: 400_000, maxOutput: 128_000 })
    expect(resolveModel('openai', 'gpt-4')).toMatchObject({ tokenizer: 'cl100k_base' })
    expect(resolveModel('anthropic', 'claude-sonnet-4-5')).toMatchObject({ contextWindow: 200_000, maxOutput: 64_000 })
    expect(resolveModel('google', 'gemini-2.5-pro')).toMatchObject({ contextWindow: 1_048_576, maxOutput: 65_536 })
  })

  it('fills the spec defaults (FR-1.2.2: 95%, 1000 retained tokens)', () => {
    for (const m of CATALOG) {
      expect(m.defaultThresholdPercent).toBe(95)
      expect(m.defaultRetentionTokens).toBe(1000)
      expect(m.pricePerMTokInput).not.toBeNull()
      // a summarizer of the same provider that can hold what it summarizes
      const s = resolveModel(m.provider, m.summarizationModel ?? '')
      expect(s?.provider).toBe(m.provider)
    }
  })

  it('resolves dated snapshots and aliases to their base model', () => {
    expect(resolveModel('openai', 'gpt-4o-2024-08-06')?.id).toBe('gpt-4o')
    expect(resolveModel('openai', 'gpt-4o-mini-2024-07-18')?.id).toBe('gpt-4o-mini')
    expect(resolveModel('openai', 'gpt-4-0613')?.id).toBe('gpt-4')
    expect(resolveModel('anthropic', 'claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5')
    expect(resolveModel('anthropic', 'claude-opus-4-20250514')?.id).toBe('claude-opus-4-0')
    expect(resolveModel('openai', 'gpt-unknown')).toBeUndefined()
    expect(resolveModel('anthropic', 'gpt-4o')).toBeUndefined()
  })

  it('merges user-defined models, which win over the catalog', () => {
    const local = userModelSchema.parse({ id: 'llama3.1:8b', contextWindow: 131_072 })
    expect(local).toMatchObject({
      provider: 'openai-compatible',
      label: 'llama3.1:8b',
      tokenizer: 'estimate',
      maxOutput: 4096,
      pricePerMTokInput: null
    })
    expect(modelSpecSchema.safeParse(local).success).toBe(true)
    expect(resolveModel('openai-compatible', 'llama3.1:8b', [local])).toBe(local)
    const smaller = userModelSchema.parse({
      provider: 'openai',
      id: 'gpt-4o',
      contextWindow: 32_000,
      tokenizer: 'o200k_base'
    })
    expect(resolveModel('openai', 'gpt-4o', [smaller])?.contextWindow).toBe(32_000)
    expect(listModels([smaller]).filter((m) => m.id === 'gpt-4o')).toEqual([smaller])
    expect(userModelSchema.safeParse({ id: 'x', contextWindow: 0 }).success).toBe(false)
  })
})
