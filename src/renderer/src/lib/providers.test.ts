import { describe, expect, it } from 'vitest'
import { PROVIDER_LABELS as DOMAIN_LABELS, providerIdSchema } from '../../../shared/domain/provider'
import { PROVIDER_LABELS, PROVIDER_ORDER, modelValue, parseModelValue } from './providers'

describe('renderer provider constants', () => {
  it('mirror the domain', () => {
    expect([...PROVIDER_ORDER]).toEqual([...providerIdSchema.options])
    expect(PROVIDER_LABELS).toEqual(DOMAIN_LABELS)
  })

  it('round-trip model values, colons in ids included', () => {
    expect(parseModelValue(modelValue('openai-compatible', 'llama3.2:latest'))).toEqual({
      provider: 'openai-compatible',
      modelId: 'llama3.2:latest'
    })
    expect(parseModelValue('nope:x')).toBeNull()
    expect(parseModelValue('openai:')).toBeNull()
  })
})
