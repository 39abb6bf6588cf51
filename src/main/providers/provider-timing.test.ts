import { describe, expect, it } from 'vitest'
import { firstChunkTimeoutMs, retryAfterMs } from './provider-timing'

describe('retry-after', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0)

  it('reads milliseconds, seconds, and an HTTP date against the injected clock', () => {
    expect(retryAfterMs({ 'retry-after-ms': '1500' }, now)).toBe(1500)
    expect(retryAfterMs({ 'retry-after': '7' }, now)).toBe(7000)
    expect(retryAfterMs({ 'retry-after': new Date(now + 30_000).toUTCString() }, now)).toBe(30_000)
    // A date in the past means: now.
    expect(retryAfterMs({ 'retry-after': new Date(now - 30_000).toUTCString() }, now)).toBe(0)
  })

  it('asks for no wait when the provider gave none or something unreadable', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined()
    expect(retryAfterMs({}, now)).toBeUndefined()
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined()
  })

  it('waits longer for the first chunk of a local server and of a summary', () => {
    expect(firstChunkTimeoutMs('openai-compatible', 'reply')).toBeGreaterThan(firstChunkTimeoutMs('openai', 'reply'))
    expect(firstChunkTimeoutMs('openai', 'summary')).toBeGreaterThan(firstChunkTimeoutMs('openai', 'reply'))
  })
})
