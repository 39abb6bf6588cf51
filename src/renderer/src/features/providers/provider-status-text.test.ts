import { describe, expect, it } from 'vitest'
import { keyStatusText, readinessText } from './provider-status-text'

describe('provider status text', () => {
  it('shows the last four characters and where the key comes from', () => {
    expect(keyStatusText({ keySet: true, keyHint: '1234', keySource: 'settings' })).toBe('Key set ••••1234 (from Settings)')
    expect(keyStatusText({ keySet: true, keyHint: '0001', keySource: 'environment' })).toBe('Key set ••••0001 (from environment)')
    expect(keyStatusText({ keySet: false, keyHint: null, keySource: null })).toBe('No key')
  })

  it('says what a provider misses', () => {
    expect(readinessText({ id: 'openai', ready: true })).toBe('Ready')
    expect(readinessText({ id: 'anthropic', ready: false })).toBe('Needs key')
    expect(readinessText({ id: 'openai-compatible', ready: false })).toBe('Needs address')
  })
})
