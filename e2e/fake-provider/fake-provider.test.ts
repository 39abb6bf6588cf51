import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { APICallError, generateText, type LanguageModel, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { estimateInputTokens, estimateOutputTokens } from './index'
import { useFakeServer } from './use-fake-server'

const SYSTEM = 'You are a terse assistant.'
const PROMPT = 'Summarise the plot of Hamlet in one sentence, please.'
const REPLY = `Reply to: ${PROMPT}`
const EXPECTED_INPUT = estimateInputTokens([
  { role: 'system', text: SYSTEM },
  { role: 'user', text: PROMPT }
])

const server = useFakeServer()

type Factory = (apiKey: string) => LanguageModel

/** Every SDK flavour Distill uses, each pointed at the fake through its ordinary baseURL option. */
const providers: Array<[string, string, Factory]> = [
  [
    'openai.chat',
    'openai-chat',
    (apiKey) => createOpenAI({ baseURL: server().baseURLs.openai, apiKey }).chat('gpt-4o-mini')
  ],
  [
    'openai.responses',
    'openai-responses',
    (apiKey) => createOpenAI({ baseURL: server().baseURLs.openai, apiKey })('gpt-4o-mini')
  ],
  [
    'anthropic',
    'anthropic',
    (apiKey) => createAnthropic({ baseURL: server().baseURLs.anthropic, apiKey })('claude-sonnet-4-5')
  ],
  [
    'google',
    'gemini',
    (apiKey) => createGoogleGenerativeAI({ baseURL: server().baseURLs.google, apiKey })('gemini-2.5-flash')
  ],
  [
    'openai-compatible',
    'openai-chat',
    (apiKey) =>
      createOpenAICompatible({
        name: 'local',
        baseURL: server().baseURLs.openaiCompatible,
        apiKey,
        includeUsage: true
      })('llama3.2')
  ]
]

/**
 * Drains fullStream. HTTP errors arrive as 'error' parts, but a transport failure mid-stream
 * (socket cut) makes the iterator itself reject — without calling onError — so both are collected.
 */
async function drain(options: Parameters<typeof streamText>[0]) {
  // A no-op onError stops streamText from console.error-ing every expected failure.
  const result = streamText({ maxRetries: 0, onError: () => {}, ...options })
  const deltas: string[] = []
  const errors: unknown[] = []
  let thrown: unknown
  let aborted = false
  let usage: { inputTokens?: number; outputTokens?: number } | undefined
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') deltas.push(part.text)
      else if (part.type === 'error') errors.push(part.error)
      else if (part.type === 'abort') aborted = true
      else if (part.type === 'finish') usage = part.totalUsage
    }
  } catch (e) {
    thrown = e
  }
  return { text: deltas.join(''), deltas, errors, thrown, aborted, usage }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (e) {
    return e
  }
  throw new Error('expected a rejection')
}

describe.each(providers)('%s through the real SDK', (_label, recordedAs, model) => {
  it('streams the deterministic echo in several chunks with the estimated usage', async () => {
    const r = await drain({ model: model('sk-test'), system: SYSTEM, prompt: PROMPT, maxRetries: 0 })
    expect(r.errors).toEqual([])
    expect(r.thrown).toBeUndefined()
    expect(r.text).toBe(REPLY)
    expect(r.deltas.length).toBeGreaterThan(3)
    expect(r.usage?.inputTokens).toBe(EXPECTED_INPUT)
    expect(r.usage?.outputTokens).toBe(estimateOutputTokens(REPLY))
    const rec = server().requests.at(-1)
    expect(rec).toMatchObject({
      provider: recordedAs,
      stream: true,
      outcome: 'ok',
      reply: REPLY,
      inputTokens: EXPECTED_INPUT
    })
  })

  it('answers non-streamed requests with the same text and usage', async () => {
    const r = await generateText({ model: model('sk-test'), system: SYSTEM, prompt: PROMPT, maxRetries: 0 })
    expect(r.text).toBe(REPLY)
    expect(r.usage.inputTokens).toBe(EXPECTED_INPUT)
    expect(r.usage.outputTokens).toBe(estimateOutputTokens(REPLY))
    expect(server().requests.at(-1)).toMatchObject({ provider: recordedAs, stream: false })
  })

  it('plays scripted chunks verbatim with overridden usage', async () => {
    server().script([{ chunks: ['Hel', 'lo, ', 'world', '!'], usage: { input: 42, output: 7 }, delayMs: 5 }])
    const r = await drain({ model: model('sk-test'), prompt: PROMPT, maxRetries: 0 })
    expect(r.deltas).toEqual(['Hel', 'lo, ', 'world', '!'])
    expect(r.usage).toMatchObject({ inputTokens: 42, outputTokens: 7 })
    // The queue is empty again: back to the echo.
    expect((await generateText({ model: model('sk-test'), prompt: 'again', maxRetries: 0 })).text).toBe(
      'Reply to: again'
    )
  })

  it('rejects the bad key with a 401 APICallError', async () => {
    const e = await rejection(generateText({ model: model('bad-key'), prompt: PROMPT, maxRetries: 0 }))
    expect(APICallError.isInstance(e) && e.statusCode).toBe(401)
    expect(server().requests.at(-1)?.headers).not.toHaveProperty('authorization')
    expect(server().requests.at(-1)?.headers).not.toHaveProperty('x-api-key')
    expect(server().requests.at(-1)?.headers).not.toHaveProperty('x-goog-api-key')
  })

  it('surfaces a scripted 429 with its retry-after header', async () => {
    server().script([{ fault: 'http429', retryAfterSeconds: 7 }])
    const e = await rejection(generateText({ model: model('sk-test'), prompt: PROMPT, maxRetries: 0 }))
    expect(APICallError.isInstance(e)).toBe(true)
    const err = e as APICallError
    expect(err.statusCode).toBe(429)
    expect(err.responseHeaders?.['retry-after']).toBe('7')
    expect(err.isRetryable).toBe(true)
  })

  it('lets the SDK retry past a 429 into the next scripted step', async () => {
    server().script([{ fault: 'http429', retryAfterSeconds: 0 }, { reply: 'Second time lucky.' }])
    const r = await drain({ model: model('sk-test'), prompt: PROMPT, maxRetries: 1 })
    expect(r.text).toBe('Second time lucky.')
    expect(server().requests.map((q) => q.outcome)).toEqual(['http429', 'ok'])
  })

  it('reports a 500 as a stream error part', async () => {
    server().script([{ fault: 'http500' }])
    const r = await drain({ model: model('sk-test'), prompt: PROMPT, maxRetries: 0 })
    expect(r.errors).toHaveLength(1)
    expect(APICallError.isInstance(r.errors[0]) && r.errors[0].statusCode).toBe(500)
  })

  it('turns a cut connection into a failed stream after partial text', async () => {
    server().script([{ fault: 'cut' }])
    const r = await drain({ model: model('sk-test'), prompt: PROMPT, maxRetries: 0 })
    expect(r.usage).toBeUndefined()
    // The SDK wraps undici's "terminated" in an APICallError carrying the original 200 status.
    expect(APICallError.isInstance(r.thrown) && r.thrown.statusCode).toBe(200)
    expect(String((r.thrown as Error).cause)).toMatch(/terminated/)
    expect(r.text.length).toBeGreaterThan(0)
    expect(REPLY.startsWith(r.text) && r.text !== REPLY).toBe(true)
  })

  it('holds a stalled stream open until the client aborts', async () => {
    server().script([{ fault: 'stall' }])
    const started = Date.now()
    const r = await drain({
      model: model('sk-test'),
      prompt: PROMPT,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(300)
    })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(r.aborted || r.errors.length > 0).toBe(true)
    expect(r.text).toBe('Reply ')
  })

  it('obeys the [fake:429] magic phrase without any script', async () => {
    const e = await rejection(
      generateText({ model: model('sk-test'), prompt: 'please fail [fake:429]', maxRetries: 0 })
    )
    expect(APICallError.isInstance(e) && e.statusCode).toBe(429)
  })
})

describe('non-streamed faults', () => {
  const model = () => createAnthropic({ baseURL: server().baseURLs.anthropic, apiKey: 'sk-test' })('claude-sonnet-4-5')

  it('a cut JSON body makes generateText reject', async () => {
    server().script([{ fault: 'cut' }])
    await expect(generateText({ model: model(), prompt: PROMPT, maxRetries: 0 })).rejects.toThrow()
  })

  it('a stalled JSON answer is ended by the abort signal', async () => {
    server().script([{ fault: 'stall' }])
    const started = Date.now()
    await expect(
      generateText({ model: model(), prompt: PROMPT, maxRetries: 0, abortSignal: AbortSignal.timeout(200) })
    ).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('a magic [fake:401] answers 401 even with a good key', async () => {
    const e = await rejection(generateText({ model: model(), prompt: 'x [fake:401]', maxRetries: 0 }))
    expect(APICallError.isInstance(e) && e.statusCode).toBe(401)
  })
})

describe('[fake:slow]', () => {
  it('streams 40 chunks about 50 ms apart', async () => {
    const model = createOpenAI({ baseURL: server().baseURLs.openai, apiKey: 'sk-test' }).chat('gpt-4o-mini')
    const started = Date.now()
    const r = await drain({ model, prompt: 'take your time [fake:slow]', maxRetries: 0 })
    expect(r.deltas).toHaveLength(40)
    expect(r.text.startsWith('Reply to: take your time [fake:slow]')).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(39 * 50 - 100)
  })
})
