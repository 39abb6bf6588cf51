import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { APICallError, generateText, type LanguageModel, type ModelMessage, streamText } from 'ai'
import { describe, expect, it } from 'vitest'
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt } from '../../src/main/engine/prompts'
import { anthropicMessages } from './anthropic'
import { anthropicCacheBlocks } from './anthropic-cache'
import { estimateInputTokens, startFakeProvider } from './index'
import { useFakeServer } from './use-fake-server'

/** About 1300 estimated tokens: over every provider's 1024-token minimum on its own. */
const SYSTEM = Array.from({ length: 100 }, (_, i) => `Rule ${i}: answer briefly and cite the rule.`).join(' ')
const ephemeral = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const
const MINUTE = 60_000

const server = useFakeServer()

const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: 'Bearer k' }) =>
  fetch(`${server().url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body)
  })

/** The chat so far plus one more user turn, as the app would send it. */
function followUp(first: ModelMessage[], reply: string, next: string): ModelMessage[] {
  return [...first, { role: 'assistant', content: reply }, { role: 'user', content: next }]
}

const openai = () => createOpenAI({ baseURL: server().baseURLs.openai, apiKey: 'k' })
const anthropic = () => createAnthropic({ baseURL: server().baseURLs.anthropic, apiKey: 'k' })('claude-sonnet-4-5')

const implicit: Array<[string, () => LanguageModel, (tokens: number) => number]> = [
  ['openai.chat', () => openai().chat('gpt-4o-mini'), (t) => t - (t % 128)],
  ['openai.responses', () => openai()('gpt-4o-mini'), (t) => t - (t % 128)],
  [
    'openai-compatible',
    () =>
      createOpenAICompatible({ name: 'local', baseURL: server().baseURLs.openaiCompatible, apiKey: 'k' })('llama3.2'),
    (t) => t - (t % 128)
  ],
  [
    'google',
    () => createGoogleGenerativeAI({ baseURL: server().baseURLs.google, apiKey: 'k' })('gemini-2.5-flash'),
    (t) => t
  ]
]

describe.each(implicit)('%s: implicit prefix caching', (_label, model, rule) => {
  it('reads the earlier prompt back when the next request extends it', async () => {
    const first: ModelMessage[] = [{ role: 'user', content: 'What is rule 7?' }]
    const a = await generateText({ model: model(), system: SYSTEM, messages: first, maxRetries: 0 })
    expect(a.usage.inputTokenDetails.cacheReadTokens ?? 0).toBe(0)
    const total1 = server().requests[0]!.inputTokens!
    expect(total1).toBeGreaterThan(1024)

    const b = await generateText({
      model: model(),
      system: SYSTEM,
      messages: followUp(first, a.text, 'And rule 8?'),
      maxRetries: 0
    })
    expect(b.usage.inputTokenDetails.cacheReadTokens).toBe(rule(total1))
    expect(b.usage.inputTokens).toBe(server().requests[1]!.inputTokens)
    expect(b.usage.inputTokenDetails.noCacheTokens).toBe(b.usage.inputTokens! - rule(total1))
    expect(server().requests.map((r) => r.cache)).toEqual([
      { read: 0, write: 0, breakpoints: 0 },
      { read: rule(total1), write: 0, breakpoints: 0 }
    ])
  })

  it('caches nothing under 1024 tokens', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await generateText({ model: model(), system: 'Be brief.', prompt: 'Hi', maxRetries: 0 })
      expect(r.usage.inputTokenDetails.cacheReadTokens ?? 0).toBe(0)
    }
  })

  it('forgets a prefix after 5 idle minutes, and a read keeps it alive', async () => {
    const ask = () => generateText({ model: model(), system: SYSTEM, prompt: 'Rule 1?', maxRetries: 0 })
    await ask()
    server().advanceCache(4 * MINUTE)
    expect((await ask()).usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(0)
    server().advanceCache(4 * MINUTE)
    expect((await ask()).usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(0)
    server().advanceCache(5 * MINUTE + 1)
    expect((await ask()).usage.inputTokenDetails.cacheReadTokens ?? 0).toBe(0)
  })
})

describe('implicit caching details', () => {
  it('streams the cached count in the OpenAI usage chunk', async () => {
    const ask = async () => {
      const r = streamText({ model: openai().chat('gpt-4o-mini'), system: SYSTEM, prompt: 'Rule 2?', maxRetries: 0 })
      await r.consumeStream()
      return r.usage
    }
    await ask()
    const usage = await ask()
    expect(usage.inputTokenDetails.cacheReadTokens).toBe(usage.inputTokens! - (usage.inputTokens! % 128))
  })

  it('counts floor(shared chars / 4) of a message that differs part-way (Gemini: no rounding)', async () => {
    const model = createGoogleGenerativeAI({ baseURL: server().baseURLs.google, apiKey: 'k' })('gemini-2.5-flash')
    await generateText({ model, system: SYSTEM, prompt: 'Hello there', maxRetries: 0 })
    const r = await generateText({ model, system: SYSTEM, prompt: 'Hello world', maxRetries: 0 })
    const head = estimateInputTokens([{ role: 'system', text: SYSTEM }])
    expect(r.usage.inputTokenDetails.cacheReadTokens).toBe(head + Math.floor('Hello '.length / 4))
  })

  it('keeps one cache per prompt_cache_key; no key only meets no key', async () => {
    const ask = (promptCacheKey?: string) =>
      generateText({
        model: openai()('gpt-4o-mini'),
        system: SYSTEM,
        prompt: 'Rule 3?',
        providerOptions: promptCacheKey ? { openai: { promptCacheKey } } : undefined,
        maxRetries: 0
      })
    const cached = async (key?: string) => (await ask(key)).usage.inputTokenDetails.cacheReadTokens ?? 0
    expect(await cached('chat-a')).toBe(0)
    expect(await cached('chat-b')).toBe(0)
    expect(await cached()).toBe(0)
    expect(await cached('chat-a')).toBeGreaterThan(0)
    expect(await cached()).toBeGreaterThan(0)
    expect(server().requests.map((r) => (r.body as { prompt_cache_key?: string }).prompt_cache_key)).toEqual([
      'chat-a',
      'chat-b',
      undefined,
      'chat-a',
      undefined
    ])
  })

  it("prompt_cache_retention: '24h' outlives an idle hour", async () => {
    const ask = () =>
      generateText({
        model: openai()('gpt-4o-mini'),
        system: SYSTEM,
        prompt: 'Rule 4?',
        providerOptions: { openai: { promptCacheRetention: '24h' } },
        maxRetries: 0
      })
    await ask()
    server().advanceCache(60 * MINUTE)
    expect((await ask()).usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(0)
  })

  it('other tools share no prefix', async () => {
    const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })
    const ask = async (name: string) => {
      const res = await post('/v1/chat/completions', {
        model: 'gpt-4o-mini',
        tools: [tool(name)],
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: 'Rule 5?' }
        ]
      })
      return ((await res.json()) as { usage: { prompt_tokens_details: { cached_tokens: number } } }).usage
        .prompt_tokens_details.cached_tokens
    }
    expect(await ask('lookup')).toBe(0)
    expect(await ask('search')).toBe(0)
    expect(await ask('lookup')).toBeGreaterThan(0)
  })

  it('POST /__cache/advance and /__cache/clear drive the cache over HTTP', async () => {
    const ask = async () => {
      const res = await post('/v1/chat/completions', {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: 'Rule 6?' }
        ]
      })
      return ((await res.json()) as { usage: { prompt_tokens_details: { cached_tokens: number } } }).usage
        .prompt_tokens_details.cached_tokens
    }
    await ask()
    expect(await ask()).toBeGreaterThan(0)
    expect((await post('/__cache/clear', {})).status).toBe(200)
    expect(await ask()).toBe(0)
    expect(await (await post('/__cache/advance', { ms: 6 * MINUTE })).json()).toEqual({ ok: true, ms: 6 * MINUTE })
    expect(await ask()).toBe(0)
    expect((await post('/__cache/advance', { ms: -1 })).status).toBe(400)
  })
})

describe('anthropic: explicit cache_control breakpoints', () => {
  const first: ModelMessage[] = [{ role: 'user', content: 'What is rule 9?', providerOptions: ephemeral }]

  it('writes the prefix up to the breakpoint, then reads it back from the next turn', async () => {
    const a = await generateText({ model: anthropic(), system: SYSTEM, messages: first, maxRetries: 0 })
    const total1 = server().requests[0]!.inputTokens!
    expect(a.usage.inputTokens).toBe(total1)
    expect(a.usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: total1, noCacheTokens: 0 })

    const messages = followUp([{ role: 'user', content: 'What is rule 9?' }], a.text, 'And rule 10?') as Array<
      ModelMessage & { providerOptions?: unknown }
    >
    messages[2]!.providerOptions = ephemeral
    const b = await generateText({ model: anthropic(), system: SYSTEM, messages, maxRetries: 0 })
    const total2 = server().requests[1]!.inputTokens!
    expect(b.usage.inputTokens).toBe(total2)
    expect(b.usage.inputTokenDetails).toMatchObject({
      cacheReadTokens: total1,
      cacheWriteTokens: total2 - total1,
      noCacheTokens: 0
    })
    expect(server().requests[1]!.cache).toEqual({ read: total1, write: total2 - total1, breakpoints: 1 })
  })

  it('reports the split in message_start when streaming, and input after the breakpoint as uncached', async () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: SYSTEM, providerOptions: ephemeral },
      { role: 'user', content: 'Rule 11?' }
    ]
    const ask = async () => {
      const r = streamText({ model: anthropic(), messages, allowSystemInMessages: true, maxRetries: 0 })
      await r.consumeStream()
      return (await r.usage).inputTokenDetails
    }
    const systemTokens = estimateInputTokens([{ role: 'system', text: SYSTEM }])
    const rest = estimateInputTokens([{ role: 'user', text: 'Rule 11?' }]) - 3
    expect(await ask()).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: systemTokens, noCacheTokens: rest })
    expect(await ask()).toMatchObject({ cacheReadTokens: systemTokens, cacheWriteTokens: 0, noCacheTokens: rest })
  })

  it('caches nothing without a breakpoint', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await generateText({ model: anthropic(), system: SYSTEM, prompt: 'Rule 12?', maxRetries: 0 })
      expect(r.usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 })
    }
    expect(server().requests.map((r) => r.cache)).toEqual([
      { read: 0, write: 0, breakpoints: 0 },
      { read: 0, write: 0, breakpoints: 0 }
    ])
  })

  it('writes nothing for a breakpoint under 1024 tokens', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await generateText({
        model: anthropic(),
        messages: [{ role: 'user', content: 'Short.', providerOptions: ephemeral }],
        maxRetries: 0
      })
      expect(r.usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 })
    }
  })

  it('expires after 5 idle minutes; ttl 1h lasts the hour', async () => {
    const ask = (ttl?: '1h') =>
      generateText({
        model: anthropic(),
        messages: [
          {
            role: 'system',
            content: SYSTEM,
            providerOptions: { anthropic: { cacheControl: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } } }
          },
          { role: 'user', content: 'Rule 13?' }
        ],
        allowSystemInMessages: true,
        maxRetries: 0
      })
    await ask()
    server().advanceCache(5 * MINUTE + 1)
    expect((await ask()).usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 0 })

    server().clearCache()
    const written = await ask('1h')
    expect(written.usage.raw).toMatchObject({
      cache_creation: {
        ephemeral_5m_input_tokens: 0,
        ephemeral_1h_input_tokens: written.usage.inputTokenDetails.cacheWriteTokens
      }
    })
    server().advanceCache(50 * MINUTE)
    expect((await ask('1h')).usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(0)
  })

  it('answers 400 to more than 4 breakpoints', async () => {
    const block = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } })
    const res = await post(
      '/v1/messages',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        system: [block('a'), block('b')],
        messages: [{ role: 'user', content: [block('c'), block('d'), block('e')] }]
      },
      { 'x-api-key': 'k' }
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.'
      }
    })
  })

  it('looks back at most 20 block boundaries from a breakpoint', async () => {
    const turns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }))
    const ask = async (messages: Array<Record<string, unknown>>) => {
      const last = messages.at(-1)!
      const body = {
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        system: SYSTEM,
        messages: [
          ...messages.slice(0, -1),
          { ...last, content: [{ type: 'text', text: last.content, cache_control: { type: 'ephemeral' } }] }
        ]
      }
      const res = await post('/v1/messages', body, { 'x-api-key': 'k' })
      return ((await res.json()) as { usage: { cache_read_input_tokens: number } }).usage.cache_read_input_tokens
    }
    await ask(turns(1))
    expect(await ask(turns(21))).toBeGreaterThan(0)
    server().clearCache()
    await ask(turns(1))
    expect(await ask(turns(23))).toBe(0)
  })

  it('block boundaries end on the same total as the usage estimate', () => {
    const body = {
      system: [
        { type: 'text', text: 'First system block.' },
        { type: 'text', text: 'Second.', cache_control: { type: 'ephemeral' } }
      ],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'found' },
            { type: 'text', text: 'ok' }
          ]
        },
        { role: 'assistant', content: [] }
      ]
    }
    const blocks = anthropicCacheBlocks(body)
    expect(blocks.at(-1)!.tokens + 3).toBe(estimateInputTokens(anthropicMessages(body)))
    expect(blocks.map((b) => b.ttlMs !== undefined)).toEqual([false, true, false, false, false, false])
    expect(blocks[1]!.tokens).toBe(estimateInputTokens(anthropicMessages({ system: body.system })))
  })

  it('scales cached parts with the usage factor so they still add up', async () => {
    server().setUsageFactor(1.7)
    const messages: ModelMessage[] = [
      { role: 'system', content: SYSTEM, providerOptions: ephemeral },
      { role: 'user', content: 'Rule 14?' }
    ]
    await generateText({ model: anthropic(), messages, allowSystemInMessages: true, maxRetries: 0 })
    const r = await generateText({ model: anthropic(), messages, allowSystemInMessages: true, maxRetries: 0 })
    const { cacheReadTokens, cacheWriteTokens, noCacheTokens } = r.usage.inputTokenDetails
    expect(cacheReadTokens).toBe(Math.round(estimateInputTokens([{ role: 'system', text: SYSTEM }]) * 1.7))
    expect(cacheReadTokens! + cacheWriteTokens! + noCacheTokens!).toBe(r.usage.inputTokens)
    expect(r.usage.inputTokens).toBe(server().requests[1]!.inputTokens)
  })
})

describe('options', () => {
  it('now: an injected clock decides when prefixes expire', async () => {
    let t = 1_000_000
    const timed = await startFakeProvider({ now: () => t })
    try {
      const model = createGoogleGenerativeAI({ baseURL: timed.baseURLs.google, apiKey: 'k' })('gemini-2.5-flash')
      const cached = async () =>
        (await generateText({ model, system: SYSTEM, prompt: 'Rule 16?', maxRetries: 0 })).usage.inputTokenDetails
          .cacheReadTokens ?? 0
      await cached()
      t += 5 * MINUTE - 1
      expect(await cached()).toBeGreaterThan(0)
      t += 5 * MINUTE
      expect(await cached()).toBe(0)
    } finally {
      await timed.close()
    }
  })
})

describe('servers without caching', () => {
  it('cache: false reports no cached tokens and no OpenAI prompt_tokens_details', async () => {
    const plain = await startFakeProvider({ cache: false })
    try {
      const model = createOpenAI({ baseURL: plain.baseURLs.openai, apiKey: 'k' }).chat('gpt-4o-mini')
      for (let i = 0; i < 2; i++) {
        const r = await generateText({ model, system: SYSTEM, prompt: 'Rule 15?', maxRetries: 0 })
        expect(r.usage.inputTokenDetails.cacheReadTokens).toBe(0)
        expect(r.usage.raw).not.toHaveProperty('prompt_tokens_details')
      }
    } finally {
      await plain.close()
    }
  })

  it('rejectCacheFields answers 400 to prompt_cache_key and cache_control, in each provider’s format', async () => {
    const strict = await startFakeProvider({ rejectCacheFields: true })
    try {
      const chat = createOpenAI({ baseURL: strict.baseURLs.openai, apiKey: 'k' }).chat('gpt-4o-mini')
      const e = await generateText({
        model: chat,
        prompt: 'Hi',
        providerOptions: { openai: { promptCacheKey: 'chat-1' } },
        maxRetries: 0
      }).catch((err: unknown) => err)
      expect(APICallError.isInstance(e) && e.statusCode).toBe(400)
      expect((e as APICallError).message).toBe('Unrecognized request argument supplied: prompt_cache_key')
      expect((await generateText({ model: chat, prompt: 'Hi', maxRetries: 0 })).text).toBe('Reply to: Hi')

      const claude = createAnthropic({ baseURL: strict.baseURLs.anthropic, apiKey: 'k' })('claude-sonnet-4-5')
      const a = await generateText({
        model: claude,
        messages: [{ role: 'user', content: 'Hi', providerOptions: ephemeral }],
        maxRetries: 0
      }).catch((err: unknown) => err)
      expect(APICallError.isInstance(a) && a.statusCode).toBe(400)
      expect(JSON.parse((a as APICallError).responseBody!)).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: 'Unrecognized request argument supplied: cache_control' }
      })
      expect(strict.requests.map((r) => r.outcome)).toEqual(['error', 'ok', 'error'])
    } finally {
      await strict.close()
    }
  })
})

describe('autoSummaries', () => {
  const prompt = summaryPrompt({
    transcript: [
      'User: How do I bake bread? I have flour.',
      'Assistant: Mix flour, water, salt and yeast. Then knead it.\nMore detail here.',
      'User: Thanks!'
    ].join('\n'),
    targetTokens: 200
  })

  it('answers a summary request with the first sentence of each message, leaving the script alone', async () => {
    const bench = await startFakeProvider({ autoSummaries: true })
    try {
      bench.script([{ reply: 'Scripted reply.' }])
      const model = createOpenAI({ baseURL: bench.baseURLs.openai, apiKey: 'k' }).chat('gpt-4o-mini')
      const summary = await generateText({ model, system: SUMMARY_SYSTEM_PROMPT, prompt, maxRetries: 0 })
      expect(summary.text).toBe(
        '- User: How do I bake bread?\n- Assistant: Mix flour, water, salt and yeast.\n- User: Thanks!'
      )
      const capped = await generateText({
        model,
        system: SUMMARY_SYSTEM_PROMPT,
        prompt,
        maxOutputTokens: 5,
        maxRetries: 0
      })
      expect(capped.text).toBe('- User: How do I bake'.slice(0, 20))
      expect((await generateText({ model, prompt: 'Hi', maxRetries: 0 })).text).toBe('Scripted reply.')
    } finally {
      await bench.close()
    }
  })

  it('is off by default: a summary request takes the next reply step', async () => {
    server().script([{ reply: 'Scripted reply.' }])
    const model = openai().chat('gpt-4o-mini')
    const summary = await generateText({ model, system: SUMMARY_SYSTEM_PROMPT, prompt, maxRetries: 0 })
    expect(summary.text).toBe('Scripted reply.')
  })
})
