import { describe, expect, it, vi } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { summarySettled } from './summary-settled'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('an edit right after a summary starts', () => {
  const openApp = useTestApps()

  it('waits for the summary instead of refusing, then edits a message the summary left out', async () => {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    app.services.settings.update({ summarizer: 'extractive' })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'openai', modelId: 'gpt-4o' })
    for (let i = 0; i < 12; i++) {
      app.services.chat.send(id, `Question ${i}: ${'a long paragraph about harbors and lanterns. '.repeat(40)}`)
      await app.services.chat.idle()
    }
    app.services.chat.send(id, 'And which lantern was brightest?')
    await app.services.chat.idle()
    const last = app.services.chat.messages(id).findLast((m) => m.role === 'user')!

    const run = app.services.compression.run(id, { retentionOverride: 200 })
    await vi.waitFor(() => expect(app.services.compression.active(id).running).toBe(true), { interval: 1 })
    expect(() => app.services.chat.edit(id, last.id, 'Something else')).toThrow(/summary is being written/)

    await summarySettled(app.services, id)
    expect(app.services.compression.active(id).summary).not.toBeNull()
    const { message } = app.services.chat.edit(id, last.id, 'Something else')
    await app.services.chat.idle()
    await run
    expect(app.services.chat.messages(id).at(-2)?.id).toBe(message.id)
  })

  it('gives up waiting after its limit, so a long model summary does not hold the edit forever', async () => {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const { id } = app.services.sessions.create()
    const slow = new Promise<undefined>(() => undefined)
    const services = {
      ...app.services,
      compression: {
        ...app.services.compression,
        active: () => ({ summary: null, running: true, draft: null }),
        idle: () => slow
      }
    }
    const started = Date.now()
    await summarySettled(services, id, 50)
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
