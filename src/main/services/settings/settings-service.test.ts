import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, settingsFieldsSchema, type SettingKey } from '../../../shared/domain/settings'
import { providerIdSchema } from '../../../shared/domain/provider'
import { createApp } from '../../app'
import { silentLogger } from '../../logger'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider, useOpenApps, useTestApps } from '../../../../test/support/test-apps'
import { writeSetting } from '../../db/repositories/settings-repo'
import { useTempDir } from '../../../../test/support/temp-dir'

/** A value other than null for each setting that can be cleared. */
const SAMPLES: Partial<Record<SettingKey, unknown>> = {
  summarizationModel: 'gpt-4.1-mini',
  lastChatModel: { provider: 'openai-compatible', modelId: 'fake-small' }
}

describe('settings', () => {
  const openApp = useTestApps()
  const tempDir = useTempDir()

  const clearable = (Object.keys(settingsFieldsSchema.shape) as SettingKey[]).filter(
    (key) => settingsFieldsSchema.shape[key].safeParse(null).success
  )

  it('has a sample for every setting that can be cleared', () => {
    expect(clearable.length).toBeGreaterThan(0)
    for (const key of clearable) expect([key, SAMPLES[key] !== undefined]).toEqual([key, true])
  })

  it.each(clearable)(
    'clears %s in the same save as other changes, and keeps it cleared after a restart',
    async (key) => {
      const dbFile = join(tempDir(), 'distill.db')
      const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {}, validateOutput: true })
      expect(await app.router.call('settings.update', { [key]: SAMPLES[key] })).toMatchObject({
        ok: true,
        data: { [key]: SAMPLES[key] }
      })
      const cleared = await app.router.call('settings.update', { [key]: null, theme: 'dark', retentionTokens: 1500 })
      expect(cleared).toMatchObject({ ok: true, data: { [key]: null, theme: 'dark', retentionTokens: 1500 } })
      await app.close()
      const reopened = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
      expect(reopened.services.settings.get()).toMatchObject({ [key]: null, theme: 'dark', retentionTokens: 1500 })
      expect(reopened.services.settings.warnings()).toEqual([])
      await reopened.close()
    }
  )

  it('clears each provider address and the optional fields of a custom model', async () => {
    const app = openApp()
    for (const provider of providerIdSchema.options) {
      await app.router.call('settings.update', { providerBaseURLs: { [provider]: 'http://127.0.0.1:11434/v1' } })
      const cleared = await app.router.call('settings.update', {
        providerBaseURLs: { [provider]: null },
        notifications: false
      })
      expect(cleared).toMatchObject({
        ok: true,
        data: { providerBaseURLs: { [provider]: null }, notifications: false }
      })
    }
    const full = {
      provider: 'openai-compatible',
      id: 'llama3',
      label: 'Llama 3',
      contextWindow: 8192,
      maxOutput: 1024,
      tokenizer: 'estimate'
    }
    await app.router.call('settings.update', { customModels: [full] })
    const bare = { provider: 'openai-compatible', id: 'llama3', contextWindow: 8192, maxOutput: 1024 }
    expect(await app.router.call('settings.update', { customModels: [bare] })).toMatchObject({ ok: true })
    expect(app.services.settings.get().customModels).toEqual([bare])
  })

  it('applies an override to this process only, never to the saved settings', async () => {
    const dbFile = join(tempDir(), 'distill.db')
    const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    const restore = app.services.settings.override({ autoCompress: false, retentionTokens: 200_000 })
    expect(app.services.settings.get()).toMatchObject({ autoCompress: false, retentionTokens: 200_000 })
    app.services.settings.update({ theme: 'light' })
    expect(app.services.settings.get()).toMatchObject({ theme: 'light', autoCompress: false })
    restore()
    expect(app.services.settings.get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' })
    await app.close()
    const reopened = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    expect(reopened.services.settings.get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' })
    await reopened.close()
  })
})

describe('settings that would break replies', () => {
  let fake: FakeProvider
  useFakeProvider((f) => (fake = f))
  const tempDir = useTempDir()
  const { open } = useOpenApps()

  it.each([[''], ['   '], ['x'.repeat(201)]])('refuses summarizationModel %j at the contract', async (value) => {
    const app = open({ dbFile: join(tempDir(), 'distill.db') })
    const r = await app.router.call('settings.update', { summarizationModel: value })
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(app.services.settings.get().summarizationModel).toBeNull()
  })

  it('a bad value already stored falls back to its default: replies and compression keep working', async () => {
    const dbFile = join(tempDir(), 'distill.db')
    const first = open({ dbFile })
    writeSetting(first.database.db, 'summarizationModel', '', 0)
    writeSetting(first.database.db, 'defaultModel', ' ', 0)
    await first.close()
    fake.script([{ reply: 'Hello.' }, { for: 'summary', chunks: ['A summary.'] }])
    const app = open({ dbFile, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    expect(app.services.settings.get()).toMatchObject({
      summarizationModel: null,
      defaultModel: DEFAULT_SETTINGS.defaultModel
    })
    expect(app.services.settings.warnings().join('\n')).toMatch(/summarizationModel/)
    const session = app.services.sessions.create()
    const sent = await app.router.call('chat.send', { sessionId: session.id, text: 'Hi there, how are you today?' })
    expect(sent.ok).toBe(true)
    await app.services.chat.idle()
    expect(app.services.chat.messages(session.id).at(-1)).toMatchObject({ status: 'complete' })
    const run = await app.router.call('compression.run', {
      sessionId: session.id,
      summarizer: 'extractive',
      retentionTokens: 0
    })
    expect(run.ok ? 'ok' : run.error.code).not.toBe('internal')
  })
})
