import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../../../../e2e/fake-provider'
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings'
import { useOpenApps, useTestApps } from '../../../../test/support/test-apps'
import { useTempDir } from '../../../../test/support/temp-dir'
import type { App } from '../../app'

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

/** Chooses a model in the chat's picker, the way the window does. */
async function choose(app: App, sessionId: string, provider: string, modelId: string) {
  expect(await app.router.call('sessions.update', { id: sessionId, provider, modelId })).toMatchObject({ ok: true })
}

describe('a new chat after a model was chosen in a chat', () => {
  const tempDir = useTempDir()
  const { open, close } = useOpenApps()

  async function localServer() {
    const fake = await startFakeProvider({ requireKey: false, models: ['gpt-4o', 'fake-small', 'nomic-embed-text'] })
    started.push(fake)
    return { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible }
  }

  it('starts on the model last chosen, after a restart too, and leaves the Settings default alone', async () => {
    const env = await localServer()
    const dbFile = join(tempDir(), 'distill.db')
    const app = open({ dbFile, env })
    await app.services.models.list()
    const first = app.services.sessions.create()
    expect(first).toMatchObject({ provider: 'openai-compatible', modelId: 'gpt-4o' })
    await choose(app, first.id, 'openai-compatible', 'fake-small')

    expect(app.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'fake-small' })
    expect((await app.services.models.list()).newChat).toEqual({
      provider: 'openai-compatible',
      modelId: 'fake-small',
      source: 'last-chosen'
    })
    expect(app.services.settings.isStored('defaultModel')).toBe(false)
    expect(app.services.settings.get()).toMatchObject({
      defaultProvider: DEFAULT_SETTINGS.defaultProvider,
      defaultModel: DEFAULT_SETTINGS.defaultModel
    })
    await close(app)

    const reopened = open({ dbFile, env })
    await reopened.services.models.list()
    expect(reopened.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'fake-small' })
  })

  it('starts on the default saved in Settings whatever was chosen since, until that default is forgotten', async () => {
    const app = open({ dbFile: join(tempDir(), 'distill.db'), env: await localServer() })
    await app.services.models.list()
    await app.router.call('settings.update', { defaultProvider: 'openai-compatible', defaultModel: 'gpt-4o' })
    const chat = app.services.sessions.create()
    await choose(app, chat.id, 'openai-compatible', 'fake-small')
    expect(app.services.sessions.create()).toMatchObject({ modelId: 'gpt-4o' })
    expect(app.services.settings.get().defaultModel).toBe('gpt-4o')

    // Half a default is refused: nothing changes.
    expect(await app.router.call('settings.update', { defaultModel: null })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
    expect(app.services.sessions.create()).toMatchObject({ modelId: 'gpt-4o' })

    expect(
      await app.router.call('settings.update', { defaultProvider: null, defaultModel: null, theme: 'dark' })
    ).toMatchObject({ ok: true, data: { defaultModel: DEFAULT_SETTINGS.defaultModel, theme: 'dark' } })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'fake-small' })
    expect((await app.services.models.list()).newChat?.source).toBe('last-chosen')
  })

  it('is not what a chat was switched to outside the window (a replay), only what the picker chose', async () => {
    const app = open({ dbFile: join(tempDir(), 'distill.db'), env: await localServer() })
    await app.services.models.list()
    const chat = app.services.sessions.create()
    app.services.sessions.update(chat.id, { provider: 'openai-compatible', modelId: 'fake-small' })
    expect(app.services.sessions.create()).toMatchObject({ modelId: 'gpt-4o' })
    expect(app.services.settings.get().lastChatModel).toBeNull()
  })

  it('gives way to a provider that can chat once the chosen one is no longer set up', async () => {
    const app = open({ dbFile: join(tempDir(), 'distill.db'), env: await localServer() })
    await app.services.models.list()
    app.services.providers.update('anthropic', { apiKey: 'sk-ant-test' })
    const chat = app.services.sessions.create()
    await choose(app, chat.id, 'anthropic', 'claude-sonnet-4-5')
    expect(app.services.sessions.create()).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })

    app.services.providers.update('anthropic', { apiKey: null })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'openai-compatible', modelId: 'gpt-4o' })
    // Set up again, the choice stands.
    app.services.providers.update('anthropic', { apiKey: 'sk-ant-test' })
    expect(app.services.sessions.create()).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
  })
})
