import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('after a reply', () => {
  const openApp = useTestApps()

  it('starts no recount: the reply is counted before what follows it reads the chat', async () => {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o-mini' })
    const recounting: Array<number | null> = []
    app.events.subscribe((e) => {
      if (e.event === 'usage.changed') recounting.push(app.services.usage.recountState(session.id))
    })
    for (const text of ['first question', 'second question', 'third question']) {
      app.services.chat.send(session.id, text)
      await app.services.chat.idle()
      // The meter asks right away, as the window does when a reply lands.
      expect(app.services.next.meter(session.id, '', { recall: false }).recounting).toBe(false)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(recounting.length).toBeGreaterThan(0)
    expect(recounting.every((r) => r === null)).toBe(true)
    expect(app.services.chat.messages(session.id).map((m) => m.status)).toEqual(Array(6).fill('complete'))
  })
})
