import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../../../../e2e/fake-provider'
import { useTestApps } from '../../../../test/support/test-apps'

const started: FakeProvider[] = []
async function fakeServer(options: Parameters<typeof startFakeProvider>[0] = {}) {
  const fake = await startFakeProvider(options)
  started.push(fake)
  return fake
}
afterEach(async () => {
  for (const f of started.splice(0)) await f.close()
})

describe('Test connection', () => {
  const open = useTestApps()

  it('says Ready only after a check succeeded, with the models listed, for every wire format', async () => {
    const fake = await fakeServer()
    const app = open({
      env: {
        OPENAI_API_KEY: 'k1',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        ANTHROPIC_API_KEY: 'k2',
        ANTHROPIC_BASE_URL: `${fake.url}/v1`,
        GOOGLE_GENERATIVE_AI_API_KEY: 'k3',
        GOOGLE_GENERATIVE_AI_BASE_URL: `${fake.url}/v1beta`
      }
    })
    for (const provider of ['openai', 'anthropic', 'google'] as const) {
      expect(app.services.providers.status(provider).check.state).toBe('unchecked')
      const checked = await app.services.providers.test(provider)
      expect(checked.check).toMatchObject({ state: 'ok', models: 5, message: null })
      expect(checked.check.latencyMs).toBeGreaterThanOrEqual(0)
    }
    // Each with its own key header: the fake provider refuses a list request without one.
    expect(fake.requests.map((r) => [r.path, r.outcome])).toEqual([
      ['/v1/models', 'ok'],
      ['/v1/models', 'ok'],
      ['/v1beta/models', 'ok']
    ])
  })

  it('reports a refused key, a wrong address and a server that is not there in plain words', async () => {
    const fake = await fakeServer()
    const app = open({ env: { OPENAI_API_KEY: 'bad-key', OPENAI_BASE_URL: `${fake.url}/v1` } })
    const refused = await app.services.providers.test('openai')
    expect(refused.check.state).toBe('failed')
    expect(refused.check.message).toMatch(/^The key was refused \(401\)/)

    await app.services.providers.update('openai', { apiKey: 'good', baseURL: `${fake.url}/nothing-here` })
    expect(app.services.providers.status('openai').check.state).toBe('unchecked')
    expect((await app.services.providers.test('openai')).check.message).toMatch(
      /Nothing answers at .*\/nothing-here\/models \(404\)/
    )

    // Port 1 on the loopback: nothing listens there. It used to show "Ready" because an address was set.
    await app.services.providers.update('openai-compatible', { baseURL: 'http://127.0.0.1:1/v1' })
    const local = await app.services.providers.test('openai-compatible')
    expect(local.check.state).toBe('failed')
    expect(local.check.message).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:1\/v1\/models.*Is the server running/)
  })
  it('tests the key and address typed in the form, not the saved ones, and remembers nothing of it', async () => {
    const fake = await fakeServer()
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`, OPENAI_COMPATIBLE_API_KEY: 'k' } })
    const typed = await app.services.providers.test('openai-compatible', { baseURL: 'http://127.0.0.1:1/v1' })
    expect(typed.check).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^Cannot reach http:\/\/127\.0\.0\.1:1\/v1\/models/)
    })
    expect(app.services.providers.status('openai-compatible').check.state).toBe('unchecked')
    expect((await app.services.providers.test('openai-compatible')).check.state).toBe('ok')
    expect(
      (await app.services.providers.test('openai', { apiKey: 'bad-key', baseURL: `${fake.url}/v1` })).check.message
    ).toMatch(/^The key was refused \(401\)/)
  })
})

describe('local server windows', () => {
  const open = useTestApps()

  for (const kind of ['ollama', 'lm-studio', 'llama.cpp'] as const) {
    it(`reads the window ${kind} runs a model with instead of assuming 4,096`, async () => {
      const fake = await fakeServer({
        requireKey: false,
        models: ['qwen3:8b'],
        localServer: { kind, windows: { 'qwen3:8b': 32_768 } }
      })
      const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1` } })
      const { models } = await app.services.models.list('openai-compatible')
      expect(models.find((m) => m.id === 'qwen3:8b')).toMatchObject({
        contextWindow: 32_768,
        windowSource: 'server',
        source: 'server'
      })
      expect(app.services.models.spec('openai-compatible', 'qwen3:8b')).toMatchObject({
        contextWindow: 32_768,
        known: true
      })
    })
  }

  it('reads the window Ollama gives only in model_info (no model loaded, no num_ctx), and says where it came from', async () => {
    const fake = await fakeServer({
      requireKey: false,
      models: ['llama3.2:latest'],
      localServer: { kind: 'ollama-model-info', windows: { 'llama3.2:latest': 131_072 } }
    })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1` } })
    const { models } = await app.services.models.list('openai-compatible')
    expect(models.find((m) => m.id === 'llama3.2:latest')).toMatchObject({
      contextWindow: 131_072,
      windowSource: 'server',
      windowFrom: 'Ollama, model_info context_length (/api/show)'
    })
  })

  it('assumes a small window, and says so, when the server does not tell', async () => {
    const fake = await fakeServer({ requireKey: false, models: ['mystery'] })
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1` } })
    const { models } = await app.services.models.list('openai-compatible')
    expect(models.find((m) => m.id === 'mystery')).toMatchObject({ contextWindow: 4096, windowSource: 'assumed' })
    expect(app.services.models.spec('openai-compatible', 'mystery').known).toBe(false)
  })
})
