import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  FAKE_ANTHROPIC_FRAMING,
  FAKE_KEY,
  startFakeCountServer,
  type FakeCountServer
} from '../../../test/support/fake-count-server'
import {
  anthropicTextCounter,
  countAnthropicTokens,
  countGeminiTokens,
  createBaselineCounter,
  geminiTextCounter
} from './remote-count'

let server: FakeCountServer
beforeAll(async () => {
  server = await startFakeCountServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
  server.delayMs = 0
  server.failWith = undefined
})

const anthropic = () => ({ baseURL: `${server.baseURL}/v1`, apiKey: FAKE_KEY, model: 'claude-sonnet-4-5' })
const google = () => ({ baseURL: `${server.baseURL}/v1beta`, apiKey: FAKE_KEY, model: 'gemini-2.5-flash' })

describe('remote countTokens clients', () => {
  it('calls Anthropic count_tokens with its headers and body', async () => {
    const r = await countAnthropicTokens({
      ...anthropic(),
      system: 'be brief',
      messages: [{ role: 'user', content: 'hello there world' }]
    })
    expect(r).toEqual({ ok: true, tokens: FAKE_ANTHROPIC_FRAMING + 3 + 2 })
    const req = server.requests[0]!
    expect(req.path).toBe('/v1/messages/count_tokens')
    expect(req.headers['x-api-key']).toBe(FAKE_KEY)
    expect(req.headers['anthropic-version']).toBe('2023-06-01')
    expect(req.body).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'be brief',
      messages: [{ role: 'user', content: 'hello there world' }]
    })
  })

  it('calls Gemini countTokens and reads an omitted totalTokens as 0', async () => {
    const contents = [{ role: 'user' as const, parts: [{ text: 'one two three' }] }]
    expect(await countGeminiTokens({ ...google(), contents })).toEqual({ ok: true, tokens: 3 })
    expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens')
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe(FAKE_KEY)
    expect(
      await countGeminiTokens({
        ...google(),
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: ' ' }] }]
      })
    ).toEqual({ ok: true, tokens: 0 })
  })

  it('reports http errors, bad keys, timeouts and unreachable hosts as results, never throws', async () => {
    expect(
      await countAnthropicTokens({ ...anthropic(), apiKey: 'wrong', messages: [{ role: 'user', content: 'x' }] })
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/^http 401/) })
    server.failWith = 500
    expect(await countGeminiTokens({ ...google(), contents: [] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^http 500/)
    })
    server.failWith = undefined
    server.delayMs = 2_000
    const started = Date.now()
    expect(
      await countAnthropicTokens({ ...anthropic(), timeoutMs: 100, messages: [{ role: 'user', content: 'x' }] })
    ).toEqual({ ok: false, reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(1_000)
    const down = await countAnthropicTokens({
      ...anthropic(),
      baseURL: 'http://127.0.0.1:9/v1',
      messages: [{ role: 'user', content: 'x' }]
    })
    expect(down).toMatchObject({ ok: false, reason: expect.stringMatching(/^network/) })
  })

  it('counts one message as count(message) − the cached baseline of a minimal request', async () => {
    const counter = createBaselineCounter(anthropicTextCounter(anthropic()))
    expect(await counter.count('a b c d')).toEqual({ ok: true, tokens: 4 })
    expect(await counter.count('e f')).toEqual({ ok: true, tokens: 2 })
    // one baseline request ('.') plus one request per message
    expect(
      server.requests.map(
        (r) => (r.body as { messages: { content: { text: string }[] }[] }).messages[0]!.content[0]!.text
      )
    ).toEqual(['.', 'a b c d', 'e f'])
    expect(await counter.count('')).toEqual({ ok: true, tokens: 0 })
    expect(server.requests).toHaveLength(3)

    const g = createBaselineCounter(geminiTextCounter(google()))
    expect(await g.count('one two')).toEqual({ ok: true, tokens: 2 })
  })

  it('does not cache a failed baseline', async () => {
    server.failWith = 503
    const counter = createBaselineCounter(anthropicTextCounter(anthropic()))
    expect((await counter.count('a')).ok).toBe(false)
    server.failWith = undefined
    expect(await counter.count('a b')).toEqual({ ok: true, tokens: 2 })
  })
})
