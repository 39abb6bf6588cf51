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
