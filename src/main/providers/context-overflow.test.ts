import { APICallError } from 'ai'
import { describe, expect, it } from 'vitest'
import { contextOverflow } from './context-overflow'

const refused = (message: string, responseBody?: string, statusCode = 400) =>
  new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseBody
  })

describe('a provider refusing a request as longer than the window', () => {
  it('is recognized with the numbers each provider gives', () => {
    expect(
      contextOverflow(
        refused(
          "This model's maximum context length is 8192 tokens. However, you requested 9,210 tokens (8186 in the messages, 1024 in the completion). Please reduce the length of the messages or completion."
        )
      )
    ).toEqual({ inputTokens: 8186, maxInput: 7168, window: 8192 })
    expect(contextOverflow(refused('prompt is too long: 210431 tokens > 199000 maximum'))).toEqual({
      inputTokens: 210431,
      maxInput: 199000
    })
    expect(
      contextOverflow(
        refused('The input token count (1048700) exceeds the maximum number of tokens allowed (1048576).')
      )
    ).toEqual({ inputTokens: 1048700, maxInput: 1048576 })
    expect(
      contextOverflow(
        refused(
          'the request exceeds the available context size, try increasing it',
          '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4711,"n_ctx":4096}}'
        )
      )
    ).toEqual({ inputTokens: 4711, maxInput: 4096, window: 4096 })
    expect(contextOverflow(refused('Error code: context_length_exceeded'))).toEqual({})
  })

  it('is not any other error', () => {
    expect(contextOverflow(refused('Invalid API key', undefined, 401))).toBeUndefined()
    expect(contextOverflow(refused('Rate limit reached', undefined, 429))).toBeUndefined()
    expect(contextOverflow(refused('model not found'))).toBeUndefined()
    expect(contextOverflow(new Error('maximum context length'))).toBeUndefined()
  })
})

/** Milliseconds `run` takes. */
function timed(run: () => void): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

const MB = 1024 * 1024

describe('a hostile or absurd refusal', () => {
  // Each of these is ~1.5 MB. The old patterns took ~28 s on a 1.4 MB body; a bounded scan of the
  // start takes well under a millisecond, so a second fails only for quadratic (or unbounded) work.
  const hostile: Array<[string, string]> = [
    ['repeated openings without the closing group', 'maximum context length is 1 tokens '.repeat((1.5 * MB) / 35)],
    ['an endless number', `maximum context length is ${'9'.repeat(1.5 * MB)}`],
    ['endless commas', `maximum context length is 1${','.repeat(1.5 * MB)} tokens`],
    [
      'an opening, then megabytes before the counts',
      `maximum context length is 8192 tokens${' x'.repeat(0.75 * MB)} (8186 in the messages)`
    ],
    ['repeated Anthropic openings', 'prompt is too long: 1 tokens '.repeat((1.5 * MB) / 29)],
    ['whitespace in the Anthropic gap', `prompt is too long:${' '.repeat(1.5 * MB)}1 tokens`],
    ['repeated Gemini openings', 'input token count (1'.repeat((1.5 * MB) / 20)],
    ['llama.cpp fields without numbers', `exceeds the available context size ${'"n_ctx" : '.repeat((1.5 * MB) / 10)}`],
    ['megabytes of HTML', `<html>${'<div>'.repeat((1.5 * MB) / 5)}</html>`]
  ]

  for (const [what, body] of hostile) {
    it(`is read in bounded time: ${what}`, () => {
      expect(body.length).toBeGreaterThan(1.4 * MB)
      for (const [message, responseBody] of [
        [body, undefined],
        ['Bad request', body],
        [body, body]
      ] as const) {
        expect(timed(() => contextOverflow(refused(message, responseBody)))).toBeLessThan(1000)
      }
    })
  }

  it('still finds the counts at the start of a huge body', () => {
    const body = `{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 9210 tokens (8186 in the messages, 1024 in the completion).","padding":"${'x'.repeat(1.5 * MB)}"}}`
    let found: unknown
    expect(timed(() => (found = contextOverflow(refused('Bad request', body))))).toBeLessThan(1000)
    expect(found).toEqual({ inputTokens: 8186, maxInput: 7168, window: 8192 })
  })

  it('is recognized without counts that are not sane', () => {
    // Absurd (past 100,000,000), zero or longer than any number: left out.
    expect(
      contextOverflow(
        refused(
          'maximum context length is 999,999,999,999 tokens. However, you requested 5 tokens (0 in the messages).'
        )
      )
    ).toEqual({})
    expect(
      contextOverflow(
        refused('maximum context length is 8192 tokens (8186 in the messages, 900000000000 in the completion)')
      )
    ).toEqual({ inputTokens: 8186, window: 8192 })
    // A completion as large as the window leaves no room: no maxInput.
    expect(
      contextOverflow(refused('maximum context length is 8192 tokens (8186 in the messages, 8192 in the completion)'))
    ).toEqual({ inputTokens: 8186, window: 8192 })
    expect(contextOverflow(refused('prompt is too long: 0 tokens > 200000000 maximum'))).toEqual({})
    expect(contextOverflow(refused('prompt is too long: 210431 tokens > 0 maximum'))).toEqual({ inputTokens: 210431 })
    expect(
      contextOverflow(
        refused('The input token count (1048700) exceeds the maximum number of tokens allowed (99999999999999999999).')
      )
    ).toEqual({ inputTokens: 1048700 })
    expect(
      contextOverflow(
        refused(
          'the request exceeds the available context size',
          '{"error":{"n_prompt_tokens":123456789012,"n_ctx":0}}'
        )
      )
    ).toEqual({})
  })
})
