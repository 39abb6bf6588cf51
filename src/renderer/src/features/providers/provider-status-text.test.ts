import { describe, expect, it } from 'vitest'
import type { ProviderCheck } from '../../../../shared/domain/provider'
import { checkResultText, keyStatusText, readinessText } from './provider-status-text'

const check = (state: ProviderCheck['state'], more: Partial<ProviderCheck> = {}): ProviderCheck => ({
  state,
  at: null,
  latencyMs: null,
  models: null,
  message: null,
  ...more
})

describe('provider status text', () => {
  it('shows the last four characters and where the key comes from', () => {
    expect(keyStatusText({ keySet: true, keyHint: '1234', keySource: 'settings' })).toBe(
      'Key set ••••1234 (from Settings)'
    )
    expect(keyStatusText({ keySet: true, keyHint: '0001', keySource: 'environment' })).toBe(
      'Key set ••••0001 (from environment)'
    )
    expect(keyStatusText({ keySet: false, keyHint: null, keySource: null })).toBe('No key')
  })

  it('says what a provider misses, and Ready only after a check succeeded', () => {
    expect(readinessText({ id: 'openai', ready: true, check: check('ok') })).toBe('Ready')
    expect(readinessText({ id: 'openai', ready: true, check: check('unchecked') })).toBe('Not tested')
    expect(readinessText({ id: 'openai-compatible', ready: true, check: check('failed') })).toBe('Not working')
    expect(readinessText({ id: 'anthropic', ready: false, check: check('unchecked') })).toBe('Needs key')
    expect(readinessText({ id: 'openai-compatible', ready: false, check: check('unchecked') })).toBe('Needs address')
  })

  it('tells how a check went', () => {
    expect(checkResultText(check('ok', { latencyMs: 1234.4, models: 12 }))).toBe(
      'Connected in 1,234 ms · 12 models listed'
    )
    expect(checkResultText(check('failed', { message: 'The key was refused (401).' }))).toBe(
      'The key was refused (401).'
    )
    expect(checkResultText(check('unchecked'))).toBeNull()
  })
})
