import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../../../../e2e/fake-provider'
import { useTestApps } from '../../../../test/support/test-apps'

const started: FakeProvider[] = []
afterEach(async () => {
  for (const f of started.splice(0)) await f.close()
})

describe('the model a new chat starts with', () => {
  const open = useTestApps()

  it('is one of the local server’s models when only a local server is set up', async () => {
    const fake = await startFakeProvider({ requireKey: false, models: ['qwen3:8b', 'llama3.2:latest'] })
    started.push(fake)
    const app = open({ env: { OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1` } })
    await app.services.models.list() // what the window does when it opens
    expect(app.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'qwen3:8b' })
  })

  it('follows the one hosted provider that has a key', () => {
    const app = open({ env: { ANTHROPIC_API_KEY: 'k' } })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'anthropic', modelId: 'claude-haiku-4-5' })
  })

  it('keeps the built-in default when its provider is set up, or when nothing is', () => {
    expect(open({ env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } }).services.sessions.create()).toMatchObject({
      provider: 'openai',
      modelId: 'gpt-4o-mini'
    })
    expect(open().services.sessions.create()).toMatchObject({ provider: 'openai', modelId: 'gpt-4o-mini' })
  })

  it('is the default the user chose, set up or not', () => {
    const app = open({ env: { ANTHROPIC_API_KEY: 'k' } })
    app.services.settings.update({ defaultProvider: 'google', defaultModel: 'gemini-2.5-pro' })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'google', modelId: 'gemini-2.5-pro' })
  })
})
