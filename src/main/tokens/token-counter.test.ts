import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { resolveModel } from '../models/catalog'
import { Calibrator } from './calibration'
import { freeEncoders, getEncoder } from './encoders'
import { FAKE_KEY, startFakeCountServer, type FakeCountServer } from '../../../test/support/fake-count-server'
import { countMessage, requestOverhead } from './message-tokens'
import type { CountableMessage } from './render'
import { createTokenCounter, LIVE_EXACT_LIMIT } from './token-counter'

let server: FakeCountServer
beforeAll(async () => {
  server = await startFakeCountServer()
})
afterAll(async () => {
  await server.close()
  freeEncoders()
})
beforeEach(() => {
  server.requests.length = 0
  server.delayMs = 0
  server.failWith = undefined
})
afterEach(() => vi.restoreAllMocks())

const gpt4o = resolveModel('openai', 'gpt-4o')!
const gpt4 = resolveModel('openai', 'gpt-4')!
const sonnet = resolveModel('anthropic', 'claude-sonnet-4-5')!
const user = (text: string): CountableMessage => ({ role: 'user', parts: [{ type: 'text', text }] })
const remote = () => ({
  anthropic: { baseURL: `${server.baseURL}/v1`, apiKey: FAKE_KEY },
  google: { baseURL: `${server.baseURL}/v1beta`, apiKey: FAKE_KEY }
})

describe('createTokenCounter', () => {
  it('caches local counts: the second count does not touch the encoder', async () => {
    const counter = createTokenCounter()
    const encode = vi.spyOn(getEncoder('o200k_base'), 'count')
    const first = await counter.countMessage(user('hello cached world'), gpt4o)
    const calls = encode.mock.calls.length
    expect(calls).toBeGreaterThan(0)
    expect(await counter.countMessage(user('hello cached world'), gpt4o)).toEqual(first)
    expect(encode.mock.calls.length).toBe(calls)
    expect(first).toMatchObject({ counter: 'tiktoken:o200k_base', exact: true })
    expect(counter.stats()).toMatchObject({ hits: 1, misses: 1, size: 1 })
    // another tokenizer is another cache entry (a model switch recounts)
    expect((await counter.countMessage(user('hello cached world'), gpt4)).counter).toBe('tiktoken:cl100k_base')
  })

  it('counts Anthropic messages via count_tokens once, then from the cache', async () => {
    const counter = createTokenCounter({ remote: remote() })
    const r = await counter.countMessage(user('one two three four'), sonnet)
    expect(r).toEqual({ tokens: 4 + 3, counter: 'api:anthropic:claude-sonnet-4-5', exact: true })
    expect(server.requests).toHaveLength(2) // baseline + message
    await counter.countMessage(user('one two three four'), sonnet)
    expect(server.requests).toHaveLength(2)
    await counter.countMessage(user('five six'), sonnet)
    expect(server.requests).toHaveLength(3) // baseline measured once per model
    const g = await counter.countMessage(user('one two'), resolveModel('google', 'gemini-2.5-pro')!)
    expect(g).toMatchObject({ tokens: 2 + 3, counter: 'api:google:gemini-2.5-pro', exact: true })
  })

  it('falls back to a local estimate (exact=false) when the endpoint times out, and backs off', async () => {
    let clock = 1_000
    const warn = vi.fn()
    const counter = createTokenCounter({
      remote: remote(),
      timeoutMs: 100,
      now: () => clock,
      remoteCooldownMs: 30_000,
      log: { warn }
    })
    server.delayMs = 2_000
    const r = await counter.countMessage(user('slow endpoint here'), sonnet)
    expect(r).toEqual({ ...countMessage(user('slow endpoint here'), sonnet), exact: false })
    expect(r.counter).toBe('estimate:anthropic')
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('timeout'))
    const sent = server.requests.length
    await counter.countMessage(user('another message'), sonnet) // cooling down: no 5 s waits per message
    expect(server.requests.length).toBe(sent)
    server.delayMs = 0
    clock += 30_001
    expect(await counter.countMessage(user('slow endpoint here'), sonnet)).toMatchObject({ exact: true, tokens: 3 + 3 })
  })

  it('counts a request as overhead + the sum of its messages, calibrating estimates', async () => {
    const msgs = [
      user('You are terse.'),
      user('What is the capital of France?'),
      { role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'Paris.' }] }
    ]
    const counter = createTokenCounter()
    const exact = await counter.countRequest(msgs, gpt4o)
    expect(exact.tokens).toBe(exact.messages.reduce((s, m) => s + m.tokens, requestOverhead(gpt4o)))
    expect(exact).toMatchObject({ exact: true, counter: 'tiktoken:o200k_base' })

    const calibration = new Calibrator()
    calibration.observe('anthropic:claude-sonnet-4-5', 1000, 1500)
    const est = await createTokenCounter({ calibration }).countRequest(msgs, sonnet)
    expect(est).toMatchObject({ exact: false, counter: 'estimate:anthropic' })
    expect(est.tokens).toBe(Math.ceil(est.rawTokens * 1.5))
    expect((await counter.countRequest([], gpt4o)).tokens).toBe(3)

    const viaApi = await createTokenCounter({ remote: remote(), remoteConcurrency: 2 }).countRequest(msgs, sonnet)
    expect(viaApi).toMatchObject({ exact: true, counter: 'api:anthropic:claude-sonnet-4-5' })
    expect(viaApi.messages.map((m) => m.tokens)).toEqual([3 + 3, 6 + 3, 1 + 3])
  })

  it('keeps the cache bounded (LRU)', async () => {
    const counter = createTokenCounter({ cache: { maxEntries: 2 } })
    for (const t of ['a', 'b', 'c']) await counter.countMessage(user(t), gpt4o)
    expect(counter.stats().size).toBe(2)
    await counter.countMessage(user('a'), gpt4o) // evicted: a miss
    expect(counter.stats()).toMatchObject({ hits: 0, misses: 4 })
  })

  it('logs and does not cache a failed local count', async () => {
    const warn = vi.fn()
    const counter = createTokenCounter({ log: { warn } })
    vi.spyOn(getEncoder('o200k_base'), 'count').mockImplementation(() => {
      throw new Error('boom')
    })
    expect(await counter.countMessage(user('abcdefgh'), gpt4o)).toMatchObject({ counter: 'chars/4', exact: false })
    expect(warn).toHaveBeenCalledOnce()
    vi.restoreAllMocks()
    expect(await counter.countMessage(user('abcdefgh'), gpt4o)).toMatchObject({ counter: 'tiktoken:o200k_base' })
  })

  it('counts a long message as countMessage does, exactly, for OpenAI and the estimates', async () => {
    const counter = createTokenCounter()
    const long = user('A paste of words, code() {} and numbers 12,345.\n'.repeat(2_000))
    for (const spec of [gpt4o, resolveModel('anthropic', 'claude-sonnet-4-5')!]) {
      const expected = countMessage(long, spec)
      expect(await counter.countMessage(long, spec)).toEqual({
        tokens: expected.tokens,
        counter: expected.counter,
        exact: spec === gpt4o
      })
    }
  })

  it('estimates a composer draft synchronously', () => {
    const counter = createTokenCounter()
    expect(counter.estimateText('How are you today?', gpt4o)).toBe(
      countMessage(user('How are you today?'), gpt4o).tokens
    )
    const huge = 'word '.repeat(LIVE_EXACT_LIMIT / 4)
    expect(counter.estimateText(huge, gpt4o)).toBe(3 + 1 + Math.ceil(huge.length / 4))
  })
})
