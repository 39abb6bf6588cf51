import { APICallError } from 'ai'
import { describe, expect, it } from 'vitest'
import { describeProviderError } from './describe-provider-error'

const failed = (options: {
  message: string
  statusCode?: number
  responseBody?: string
  responseHeaders?: Record<string, string>
}) =>
  new APICallError({
    url: 'http://127.0.0.1:1234/v1/chat/completions',
    requestBodyValues: {},
    ...options
  })

const timed = (run: () => void) => {
  const start = performance.now()
  run()
  return performance.now() - start
}

const MB = 1024 * 1024
const now = Date.parse('2026-03-01T12:00:00Z')

describe('describeProviderError with untrusted errors', () => {
  it('says the numbers of a context overflow as before', () => {
    const info = describeProviderError(
      failed({
        statusCode: 400,
        message:
          "This model's maximum context length is 8192 tokens. However, you requested 9210 tokens (8186 in the messages, 1024 in the completion)."
      }),
      'openai-compatible',
      { now }
    )
    expect(info.code).toBe('context_overflow')
    expect(info.message).toContain('(it counts 8,186 tokens where 7,168 fit)')
  })

  it('reads megabyte messages, bodies and headers in bounded time, quoting only the start', () => {
    const huge = 'maximum context length is 1 tokens '.repeat((1.5 * MB) / 35)
    for (const statusCode of [400, 418, 500, undefined]) {
      let info: ReturnType<typeof describeProviderError> | undefined
      const ms = timed(
        () =>
          (info = describeProviderError(failed({ statusCode, message: huge, responseBody: huge }), 'openai', { now }))
      )
      expect(ms).toBeLessThan(1000)
      expect(info!.message.length).toBeLessThan(1000)
    }
    const other = describeProviderError(new Error('x'.repeat(1.5 * MB)), 'openai', { now })
    expect(other.message.length).toBeLessThan(1000)
  })

  it('takes a sane retry-after only', () => {
    const limited = (headers: Record<string, string>) =>
      describeProviderError(failed({ statusCode: 429, message: 'Rate limited', responseHeaders: headers }), 'openai', {
        now
      })
    expect(limited({ 'retry-after': '7' })).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 7 })
    expect(limited({ 'retry-after-ms': '1500' })).toMatchObject({ retryAfterSeconds: 2 })
    expect(limited({ 'retry-after': 'Sun, 01 Mar 2026 12:00:30 GMT' })).toMatchObject({ retryAfterSeconds: 30 })
    const absurd: Array<Record<string, string>> = [
      { 'retry-after': '9'.repeat(1.5 * MB) },
      { 'retry-after': '1e300' },
      { 'retry-after-ms': 'Infinity' },
      { 'retry-after': `${' '.repeat(MB)}7` }
    ]
    for (const headers of absurd) {
      let info: ReturnType<typeof describeProviderError> | undefined
      expect(timed(() => (info = limited(headers)))).toBeLessThan(1000)
      expect(info).toMatchObject({
        code: 'rate_limited',
        message: 'OpenAI is limiting requests (429). Try again shortly.'
      })
      expect(info!.retryAfterSeconds).toBeUndefined()
    }
  })
})
