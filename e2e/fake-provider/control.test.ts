import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import { describe, expect, it } from 'vitest'
import { estimateInputTokens, startFakeProvider } from './index'
import { useFakeServer } from './use-fake-server'
import { resolvePlan } from './script-queue'
import { splitEvenly, splitWords } from './reply'

const server = useFakeServer()

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server().url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body)
  })

const messages = [
  { role: 'user', content: 'What is the capital of France?' },
  { role: 'assistant', content: 'Paris.' },
  { role: 'user', content: 'And of Italy?' }
]
const expectedTokens = estimateInputTokens([
  { role: 'system', text: 'Be brief.' },
  ...messages.map((m) => ({ role: m.role, text: m.content }))
])

describe('token counting endpoints (plain fetch)', () => {
  it('Anthropic POST /v1/messages/count_tokens returns {input_tokens}', async () => {
    const res = await post(
      '/v1/messages/count_tokens',
      { model: 'claude-sonnet-4-5', system: 'Be brief.', messages },
      { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ input_tokens: expectedTokens })
  })

  it('Gemini POST :countTokens returns {totalTokens}, with the key in ?key=', async () => {
    const contents = messages.map((m) => ({
      role: m.role === 'assistant' ? 'model' : 'user',
      parts: [{ text: m.content }]
    }))
    const res = await post('/v1beta/models/gemini-2.5-flash:countTokens?key=k', {
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents
      }
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ totalTokens: expectedTokens })
    expect(server().requests.at(-1)).toMatchObject({
      provider: 'gemini-count-tokens',
      model: 'gemini-2.5-flash',
      query: {}
    })
  })

  it('counts the same tokens the generation endpoint reports as input usage', async () => {
    const count = await post(
      '/v1/messages/count_tokens',
      { model: 'm', system: 'Be brief.', messages },
      { 'x-api-key': 'k' }
    )
    const gen = await post(
      '/v1/messages',
      { model: 'm', max_tokens: 100, system: 'Be brief.', messages },
      { 'x-api-key': 'k' }
    )
    const { input_tokens } = (await count.json()) as { input_tokens: number }
    const body = (await gen.json()) as { usage: { input_tokens: number }; content: Array<{ text: string }> }
    expect(body.usage.input_tokens).toBe(input_tokens)
    expect(body.content[0]?.text).toBe('Reply to: And of Italy?')
  })
})

describe('auth', () => {
  it.each([
    ['/v1/chat/completions', { error: { code: 'invalid_api_key' } }],
    ['/v1/responses', { error: { code: 'invalid_api_key' } }],
    ['/v1/messages', { type: 'error', error: { type: 'authentication_error' } }],
    ['/v1beta/models/gemini-2.5-flash:generateContent', { error: { code: 401, status: 'UNAUTHENTICATED' } }]
  ])('a missing key on %s is a 401 in that provider’s error format', async (path, shape) => {
    const res = await post(path, { model: 'm', messages: [] })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject(shape)
  })

  it('requireKey: false accepts keyless requests, like a local server', async () => {
    const open = await startFakeProvider({ requireKey: false })
    try {
      const res = await fetch(`${open.url}/v1/models`)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toContain('fake-model')
    } finally {
      await open.close()
    }
  })
})

describe('HTTP control endpoints', () => {
  it('POST /__script queues steps for any provider; GET /__requests shows them without secrets', async () => {
    const queued = await post('/__script', [{ reply: 'First.' }, { reply: 'Second.' }])
    expect(await queued.json()).toMatchObject({ ok: true, queued: 2, pending: 2 })

    const openai = createOpenAI({ baseURL: server().baseURLs.openai, apiKey: 'sk-secret' })
    expect((await generateText({ model: openai.chat('gpt-4o-mini'), prompt: 'a', maxRetries: 0 })).text).toBe('First.')
    const anthropicRes = await post(
      '/v1/messages',
      { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'b' }] },
      { 'x-api-key': 'sk-secret' }
    )
    expect(((await anthropicRes.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe('Second.')

    const recorded = (await (await fetch(`${server().url}/__requests`)).json()) as Array<Record<string, unknown>>
    expect(recorded.map((r) => [r.provider, r.model, r.reply])).toEqual([
      ['openai-chat', 'gpt-4o-mini', 'First.'],
      ['anthropic', 'claude', 'Second.']
    ])
    expect(JSON.stringify(recorded)).not.toContain('sk-secret')
  })

  it('rejects malformed steps with 400 and queues nothing', async () => {
    const res = await post('/__script', { steps: [{ reply: 'ok' }, { fault: 'explode' }] })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toMatch(/step 1: invalid fault/)
    const gen = await post(
      '/v1/chat/completions',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: 'Bearer k' }
    )
    expect(
      ((await gen.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content
    ).toBe('Reply to: hi')
  })

  it('POST /__reset drops pending steps and the request log', async () => {
    server().script([{ reply: 'never used' }])
    await post('/__reset', {})
    expect(server().requests).toHaveLength(0)
    const gen = await post(
      '/v1/chat/completions',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: 'Bearer k' }
    )
    expect(
      ((await gen.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content
    ).toBe('Reply to: hi')
  })

  it('serves GET /v1/models in OpenAI list format', async () => {
    const res = await fetch(`${server().url}/v1/models`, { headers: { authorization: 'Bearer k' } })
    expect(await res.json()).toMatchObject({
      object: 'list',
      data: expect.arrayContaining([{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-provider' }])
    })
  })

  it('unknown routes get a 404 instead of hanging', async () => {
    const res = await post('/v1/embeddings', {}, { authorization: 'Bearer k' })
    expect(res.status).toBe(404)
  })
})

describe('close()', () => {
  it('ends promptly while a stalled stream is still open', async () => {
    const own = await startFakeProvider()
    own.script([{ fault: 'stall' }])
    const res = await fetch(`${own.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hang please' }] })
    })
    expect(res.status).toBe(200)
    const reading = res.text()
    const started = Date.now()
    await own.close()
    expect(Date.now() - started).toBeLessThan(1000)
    await expect(reading).rejects.toThrow()
  })
})

describe('planning and chunking', () => {
  it('splits replies into word chunks that join back exactly', () => {
    expect(splitWords('Reply to:  two  words ')).toEqual(['Reply ', 'to:  ', 'two  ', 'words '])
    expect(splitWords('')).toEqual([''])
    expect(splitEvenly('abcdefghij', 4).join('')).toBe('abcdefghij')
    expect(splitEvenly('abcdefghij', 4)).toHaveLength(4)
  })

  it('a scripted step beats a magic phrase; the echo is capped at 200 chars', () => {
    const msgs = [{ role: 'user', text: `[fake:500] ${'x'.repeat(300)}` }]
    expect(resolvePlan({ reply: 'scripted' }, msgs).fault).toBeUndefined()
    const plan = resolvePlan(undefined, msgs)
    expect(plan.fault).toBe('http500')
    expect(plan.reply).toBe(`Reply to: ${msgs[0]?.text.slice(0, 200)}`)
  })

  it('a cut always delivers something and withholds something', () => {
    const plan = resolvePlan({ reply: 'x', fault: 'cut' }, [])
    expect(plan.chunks.length).toBeGreaterThanOrEqual(2)
  })
})
