import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { EventEnvelope } from '../../../shared/contract'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { ProviderId } from '../../../shared/domain/provider'
import type { App } from '../../app'
import { LONG_MESSAGE_CHARS } from './turn-writer'
import { useTempDir } from '../../../../test/support/temp-dir'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('chat against real provider SDKs and the scripted fake provider', () => {
  const tempDir = useTempDir()
  const openApp = useTestApps()

  function open(env: Record<string, string> = {}, stallMs = 2000) {
    const app = openApp({
      stallMs,
      retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 5000 },
      env: {
        OPENAI_API_KEY: 'sk-test-openai-1234',
        OPENAI_BASE_URL: fake.baseURLs.openai,
        ANTHROPIC_API_KEY: 'sk-ant-test-5678',
        ANTHROPIC_BASE_URL: fake.baseURLs.anthropic,
        GOOGLE_GENERATIVE_AI_API_KEY: 'google-test-9012',
        GOOGLE_GENERATIVE_AI_BASE_URL: fake.baseURLs.google,
        OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible,
        OPENAI_COMPATIBLE_API_KEY: 'local-key',
        ...env
      }
    })
    const events: EventEnvelope[] = []
    app.events.subscribe((e) => events.push(e))
    return { app, events }
  }

  async function chat(app: App, text: string, model?: { provider: ProviderId; modelId: string }) {
    const session = app.services.sessions.create()
    if (model) app.services.sessions.update(session.id, model)
    app.services.chat.send(session.id, text)
    await app.services.chat.idle()
    return { session, messages: app.services.chat.messages(session.id) }
  }

  const reply = (messages: ChatMessage[]) => messages.at(-1)!

  it.each([
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-haiku-4-5'],
    ['google', 'gemini-2.5-flash'],
    ['openai-compatible', 'llama3.1:8b']
  ] as const)('streams a %s reply and stores the reported usage', async (provider, modelId) => {
    const { app, events } = open()
    const { messages } = await chat(app, 'What is the capital of France?', { provider, modelId })
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete']
    ])
    const answer = reply(messages)
    expect(answer.parts).toEqual([{ type: 'text', text: 'Reply to: What is the capital of France?' }])
    // The reply's request (a token-count request of the earlier chat may land after it).
    const recorded = fake.requests.filter((r) => !r.provider.endsWith('-count-tokens')).at(-1)!
    expect(recorded.provider).toBe(
      { openai: 'openai-chat', anthropic: 'anthropic', google: 'gemini', 'openai-compatible': 'openai-chat' }[provider]
    )
    expect(answer.inputTokens).toBe(recorded.inputTokens)
    expect(answer.outputTokens).toBeGreaterThan(0)
    const deltas = events.filter((e) => e.event === 'chat.delta').map((e) => (e.payload as { delta: string }).delta)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe('Reply to: What is the capital of France?')
  })

  it('sends the system prompt and the earlier turns', async () => {
    const { app } = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o', systemPrompt: 'Answer tersely.' })
    app.services.chat.send(session.id, 'first question')
    await app.services.chat.idle()
    app.services.chat.send(session.id, 'second question')
    await app.services.chat.idle()
    const body = fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> }
    expect(body.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'Answer tersely.'],
      ['user', 'first question'],
      ['assistant', 'Reply to: first question'],
      ['user', 'second question']
    ])
  })

  it('explains a refused key and keeps the user message', async () => {
    const { app } = open({ OPENAI_API_KEY: 'bad-key' })
    const { messages } = await chat(app, 'hello there')
    expect(messages[0]).toMatchObject({
      role: 'user',
      status: 'complete',
      parts: [{ type: 'text', text: 'hello there' }]
    })
    expect(reply(messages)).toMatchObject({
      status: 'error',
      error: { code: 'invalid_key', message: 'OpenAI refused the API key (401). Check the key in Settings.' }
    })
  })

  it('retries a 429 after retry-after and succeeds', async () => {
    const { app } = open()
    fake.script([{ fault: 'http429', retryAfterSeconds: 0 }, { reply: 'Made it.' }])
    const { messages } = await chat(app, 'busy?')
    expect(reply(messages)).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Made it.' }] })
  })

  it('reports a persistent 429 with the wait the provider asked for', async () => {
    const { app } = open()
    fake.script([0, 1, 2].map(() => ({ fault: 'http429' as const, retryAfterSeconds: 0 })))
    const { messages } = await chat(app, 'busy?')
    expect(reply(messages)).toMatchObject({
      status: 'error',
      error: { code: 'rate_limited', message: 'OpenAI is limiting requests (429). Try again in 0 s.' }
    })
  })

  it('reports server errors after the retries', async () => {
    const { app } = open()
    fake.script([0, 1, 2].map(() => ({ fault: 'http500' as const })))
    const { messages } = await chat(app, 'anyone?')
    expect(reply(messages)).toMatchObject({ status: 'error', error: { code: 'server_error' } })
    expect(fake.requests).toHaveLength(3)
  })

  it('times out a stalled stream', async () => {
    const { app } = open({}, 300)
    fake.script([{ fault: 'stall' }])
    const { messages } = await chat(app, 'stall please')
    expect(reply(messages)).toMatchObject({ status: 'error', error: { code: 'timeout' } })
  })

  it('keeps the partial text of a stream cut in the middle', async () => {
    const { app } = open()
    fake.script([{ fault: 'cut', chunks: ['The answer ', 'is ', 'forty', '-two', ' and more'] }])
    const { messages } = await chat(app, 'cut me off')
    const answer = reply(messages)
    expect(answer).toMatchObject({ status: 'error', error: { code: 'stream_broken' } })
    const text = answer.parts[0]?.type === 'text' ? answer.parts[0].text : ''
    expect(text.length).toBeGreaterThan(0)
    expect('The answer is forty-two and more'.startsWith(text)).toBe(true)
  })

  it('says when a local server cannot be reached', async () => {
    // A port that was just free: nothing listens there.
    const { createServer } = await import('node:net')
    const probe = createServer()
    const port = await new Promise<number>((r) =>
      probe.listen(0, '127.0.0.1', () => r((probe.address() as { port: number }).port))
    )
    await new Promise((r) => probe.close(r))
    const { app } = open({ OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1` })
    const { messages } = await chat(app, 'local?', { provider: 'openai-compatible', modelId: 'llama3' })
    expect(reply(messages)).toMatchObject({
      status: 'error',
      error: {
        code: 'unreachable',
        message: `Cannot reach Local / OpenAI-compatible at http://127.0.0.1:${port}. Is the server running?`
      }
    })
  })

  it('stops a streaming reply, keeps what arrived, and retries it', async () => {
    const { app } = open()
    fake.script([{ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 40 }])
    const session = app.services.sessions.create()
    // Stopped once the first words arrived, however busy the machine: the test waits for the state it asserts.
    let deltas = 0
    let gotTwo!: () => void
    const twoArrived = new Promise<void>((resolve) => (gotTwo = resolve))
    const unsubscribe = app.events.subscribe(({ event }) => {
      if (event === 'chat.delta' && ++deltas === 2) gotTwo()
    })
    const { reply: pending } = await app.services.chat.send(session.id, 'talk slowly')
    expect(pending.status).toBe('streaming')
    await twoArrived
    unsubscribe()
    expect(await app.services.chat.stop(session.id)).toEqual({ stopped: true })
    const stopped = app.services.chat.message(pending.id)!
    expect(stopped.status).toBe('aborted')
    const text = stopped.parts[0]?.type === 'text' ? stopped.parts[0].text : ''
    expect(text).toMatch(/^w0 w1 /)
    expect(text.split(' ').length).toBeLessThan(40)

    app.services.chat.retry(session.id)
    await app.services.chat.idle()
    const retried = app.services.chat.message(pending.id)!
    expect(retried).toMatchObject({ status: 'complete', parts: [{ type: 'text', text: 'Reply to: talk slowly' }] })
  })

  it('says a message went out cut by publishing it whole, as stored, with the cut', async () => {
    const { app, events } = open()
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'tiny-4k' })
    const { message } = await app.services.chat.send(session.id, 'a long paste of plain words '.repeat(2_000))
    await app.services.chat.idle()
    const noted = events
      .filter((e) => e.event === 'chat.message')
      .map((e) => (e.payload as { message: ChatMessage }).message)
      .filter((m) => m.id === message.id && m.sentCutTokens)
    expect(noted).toHaveLength(1)
    expect(noted[0]).toEqual(app.services.chat.message(message.id))
    expect(noted[0]!.parts).toEqual(message.parts)
  })

  it('refuses a second message while a reply streams, losing nothing', async () => {
    const { app } = open()
    fake.script([{ chunks: ['a', 'b', 'c'], delayMs: 100 }])
    const session = app.services.sessions.create()
    app.services.chat.send(session.id, 'one')
    const second = await app.router.call('chat.send', { sessionId: session.id, text: 'two' })
    expect(second).toMatchObject({ ok: false, error: { code: 'busy' } })
    await app.services.chat.idle()
    expect(app.services.chat.messages(session.id).map((m) => m.status)).toEqual(['complete', 'complete'])
  })

  it('writes a long message on the database thread: whole, answered, titled, and the chat busy until it is saved', async () => {
    const { app } = open()
    const session = app.services.sessions.create()
    const text = 'Lantern report for the harbor master. '.repeat(4_000)
    expect(text.length).toBeGreaterThanOrEqual(LONG_MESSAGE_CHARS)
    const sent = app.services.chat.send(session.id, text)
    // The thread is still writing it: a second message in the same chat waits its turn.
    await expect(app.services.chat.send(session.id, 'and this')).rejects.toMatchObject({
      code: 'busy',
      message: 'A message is still being saved in this chat.'
    })
    const { message, reply } = await sent
    expect([message.seq, reply.seq]).toEqual([1, 2])
    // Written with its count, not rewritten for it afterwards.
    expect(message.tokenCount).toBeGreaterThan(20_000)
    await app.services.chat.idle()
    const stored = app.services.chat.messages(session.id)
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete']
    ])
    expect(stored[0]!.parts).toEqual([{ type: 'text', text }])
    expect(app.services.sessions.get(session.id).title).toMatch(/^Lantern report for the harbor master/)
    // The next message is written as usual, after it.
    const next = await app.services.chat.send(session.id, 'Thanks')
    expect(next.message.seq).toBe(3)
  })

  it('marks replies interrupted by a crash as stopped on the next start', async () => {
    const file = join(tempDir(), 'crash.db')
    const first = openApp({ dbFile: file })
    const session = first.services.sessions.create()
    first.database.sqlite
      .prepare(
        'INSERT INTO chat_messages (id, session_id, seq, role, parts, status, created_at) VALUES (\'m1\', ?, 1, \'assistant\', \'[{"type":"text","text":"half"}]\', \'streaming\', 0)'
      )
      .run(session.id)
    // A crash: the database is closed under the running reply, nothing else is shut down.
    first.database.close()
    const second = openApp({ dbFile: file })
    expect(second.services.chat.message('m1')).toMatchObject({
      status: 'aborted',
      error: { code: 'interrupted' },
      parts: [{ type: 'text', text: 'half' }]
    })
  })
})
