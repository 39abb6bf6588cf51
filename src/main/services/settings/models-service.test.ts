import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider, type ProbeRequest } from '../../../../e2e/fake-provider'
import { useTestApps } from '../../../../test/support/test-apps'
import type { App } from '../../app'

const started: FakeProvider[] = []
async function fakeServer(options: Parameters<typeof startFakeProvider>[0] = {}) {
  const fake = await startFakeProvider({ requireKey: false, ...options })
  started.push(fake)
  return fake
}
afterEach(async () => {
  for (const f of started.splice(0)) await f.close()
})

/** 39 chat models, as a well-stocked Ollama lists them. */
const MODELS = Array.from({ length: 39 }, (_, i) => `model-${i + 1}:${i % 2 ? '8b' : 'latest'}`)

const key = (p: ProbeRequest) => `${p.method} ${p.path} ${p.body}`

/** What the window does: lists the models (on start, on opening Settings), sends, lists again. */
async function everydayUse(app: App, modelId: string) {
  await app.services.models.list()
  const session = app.services.sessions.create()
  await app.router.call('sessions.update', { id: session.id, provider: 'openai-compatible', modelId })
  for (const text of ['Hello there, how are you?', 'And what about tomorrow?']) {
    await app.services.models.list()
    expect(await app.router.call('chat.send', { sessionId: session.id, text })).toMatchObject({ ok: true })
    await app.services.chat.idle()
    expect(await app.router.call('chat.context', { sessionId: session.id })).toMatchObject({ ok: true })
  }
  await app.services.models.list()
}

describe('probing a local server for its windows', () => {
  const open = useTestApps()

  it('asks about each of 39 models once, however often the models are listed and messages sent', async () => {
    const windows = Object.fromEntries(MODELS.map((id, i) => [id, 8192 * (1 + (i % 4))]))
    const fake = await fakeServer({ models: MODELS, localServer: { kind: 'ollama-model-info', windows } })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible } })

    await everydayUse(app, MODELS[5]!)

    const asked = fake.probes.map(key)
    expect(new Set(asked).size).toBe(asked.length) // nothing asked twice
    // One /api/show per model, and the three requests that tell which server this is.
    expect(fake.probes.filter((p) => p.path === '/api/show')).toHaveLength(39)
    expect(fake.probes.length).toBeLessThanOrEqual(39 + 3)
    const { models } = await app.services.models.list('openai-compatible')
    expect(models.filter((m) => m.windowSource === 'server')).toHaveLength(39)
    expect(app.services.models.spec('openai-compatible', MODELS[5]!)).toMatchObject({ contextWindow: 16_384 })
  })

  it('asks a server that has no window API three requests in all, never per model', async () => {
    const fake = await fakeServer({ models: MODELS })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible } })

    await everydayUse(app, MODELS[0]!)

    expect(fake.probes.map((p) => `${p.method} ${p.path}`).sort()).toEqual([
      'GET /api/ps',
      'GET /api/v0/models',
      'GET /props'
    ])
    expect(app.services.models.spec('openai-compatible', MODELS[0]!)).toMatchObject({
      contextWindow: 4096,
      windowSource: 'assumed'
    })
  })

  it('reads LM Studio’s windows from its model list, without a request per model', async () => {
    const windows = Object.fromEntries(MODELS.map((id) => [id, 32_768]))
    const fake = await fakeServer({ models: MODELS, localServer: { kind: 'lm-studio', windows } })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible } })
    await everydayUse(app, MODELS[0]!)
    expect(fake.probes).toHaveLength(3)
    expect(app.services.models.spec('openai-compatible', MODELS[9]!)).toMatchObject({
      contextWindow: 32_768,
      windowSource: 'server'
    })
  })

  it('asks again when the connection changes, and only then', async () => {
    const first = await fakeServer({
      models: ['qwen3:8b'],
      localServer: { kind: 'ollama-model-info', windows: { 'qwen3:8b': 40_960 } }
    })
    const second = await fakeServer({
      models: ['qwen3:8b'],
      localServer: { kind: 'ollama-model-info', windows: { 'qwen3:8b': 8192 } }
    })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: first.baseURLs.openaiCompatible } })
    await app.services.models.list()
    await app.services.models.list()
    expect(app.services.models.spec('openai-compatible', 'qwen3:8b').contextWindow).toBe(40_960)
    expect(first.probes.filter((p) => p.path === '/api/show')).toHaveLength(1)

    app.services.providers.update('openai-compatible', { baseURL: second.baseURLs.openaiCompatible })
    await app.services.models.list()
    await app.services.models.list()
    expect(app.services.models.spec('openai-compatible', 'qwen3:8b').contextWindow).toBe(8192)
    expect(second.probes.filter((p) => p.path === '/api/show')).toHaveLength(1)
    expect(first.probes.filter((p) => p.path === '/api/show')).toHaveLength(1)
  })

  it('asks a server again after it did not answer at all (not started yet)', async () => {
    const gone = await fakeServer()
    const port = gone.port
    await gone.close()
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1` } })
    expect((await app.services.models.list('openai-compatible')).warnings[0]).toMatch(/Cannot reach/)
    app.services.models.spec('openai-compatible', 'qwen3:8b') // a chat on it asks, and nobody answers

    const fake = await fakeServer({
      port,
      models: ['qwen3:8b'],
      localServer: { kind: 'ollama-model-info', windows: { 'qwen3:8b': 40_960 } }
    })
    const { models } = await app.services.models.list('openai-compatible')
    expect(models.find((m) => m.id === 'qwen3:8b')).toMatchObject({ contextWindow: 40_960, windowSource: 'server' })
    expect(fake.probes.filter((p) => p.path === '/api/show')).toHaveLength(1)
  })
})

describe('embedding models a local server lists', () => {
  const open = useTestApps()

  it('are not offered as chat models, nor probed, nor given to a new chat', async () => {
    const fake = await fakeServer({
      models: [
        'nomic-embed-text:latest',
        'text-embedding-3-small',
        'mxbai-embed-large',
        'bge-m3',
        'all-minilm',
        'qwen3:8b'
      ],
      localServer: { kind: 'ollama-model-info', windows: { 'qwen3:8b': 40_960, 'nomic-embed-text:latest': 2048 } }
    })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible } })
    const { models, newChat } = await app.services.models.list()
    expect(models.filter((m) => m.provider === 'openai-compatible').map((m) => m.id)).toEqual(['qwen3:8b'])
    expect(newChat).toEqual({ provider: 'openai-compatible', modelId: 'qwen3:8b', source: 'first-ready' })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'qwen3:8b' })
    expect(fake.probes.filter((p) => p.path === '/api/show').map((p) => p.body)).toEqual(['{"model":"qwen3:8b"}'])
  })
})
