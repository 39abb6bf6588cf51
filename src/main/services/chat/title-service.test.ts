import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { cleanTitle } from './title-service'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('generated chat titles', () => {
  const openApp = useTestApps()
  const open = (withKey = true) =>
    openApp({
      stallMs: 2000,
      titleTimeoutMs: 1500,
      retry: { retries: 0, baseDelayMs: 10, maxDelayMs: 100 },
      env: withKey ? { OPENAI_API_KEY: 'sk-test-openai-1234', OPENAI_BASE_URL: fake.baseURLs.openai } : {}
    })

  async function firstExchange(app: App, text: string, modelId?: string) {
    const session = app.services.sessions.create()
    if (modelId) app.services.sessions.update(session.id, { modelId })
    app.services.chat.send(session.id, text)
    await app.services.chat.idle()
    await app.services.titles.idle()
    return app.services.sessions.get(session.id)
  }

  it('names the chat after its first reply with the summarization model, once', async () => {
    const app = open()
    fake.script([{ reply: 'Sure: knead it for ten minutes.' }, { for: 'title', reply: '"Bread Kneading Basics."' }])
    const session = await firstExchange(app, 'how long should i knead bread dough by hand??', 'gpt-4o')
    expect(session.title).toBe('Bread Kneading Basics')
    // The request carried the first message and the reply, and went to the cheap model of the provider.
    expect(fake.titleRequests).toHaveLength(1)
    expect(fake.requests.map((r) => r.model)).toEqual(['gpt-4o'])
    expect(fake.titleRequests[0]!.model).toBe('gpt-4o-mini')
    const body = JSON.stringify(fake.titleRequests[0]!.body)
    expect(body).toContain('Write a short title for this chat.')
    expect(body).toContain('how long should i knead bread dough by hand??')
    expect(body).toContain('Sure: knead it for ten minutes.')
    // The reply itself took the reply step, not the title's.
    expect(app.services.chat.messages(session.id).at(-1)!.parts).toEqual([
      { type: 'text', text: 'Sure: knead it for ten minutes.' }
    ])

    // Later replies leave the title alone.
    fake.script([{ for: 'title', reply: 'Something else' }])
    app.services.chat.send(session.id, 'And the second rise?')
    await app.services.chat.idle()
    await app.services.titles.idle()
    expect(app.services.sessions.get(session.id).title).toBe('Bread Kneading Basics')
    expect(fake.titleRequests).toHaveLength(1)
  })

  it('keeps the first-message title when the model fails, stalls, or no provider is set up', async () => {
    const app = open()
    fake.script([{ reply: 'Fine.' }, { for: 'title', fault: 'http500' }])
    expect((await firstExchange(app, 'Plan a picnic for Sunday')).title).toBe('Plan a picnic for Sunday')
    fake.script([{ reply: 'Fine.' }, { for: 'title', fault: 'stall' }])
    expect((await firstExchange(app, 'Which blanket is waterproof')).title).toBe('Which blanket is waterproof')

    const offline = open(false)
    const session = await firstExchange(offline, 'Offline question about knots')
    expect(session.title).toBe('Offline question about knots')
  })

  it('never replaces a title the user chose', async () => {
    const app = open()
    const session = app.services.sessions.create()
    fake.script([
      { reply: 'Here you go.', delayMs: 20 },
      { for: 'title', reply: 'Generated' }
    ])
    app.services.chat.send(session.id, 'Draft an email to the landlord')
    app.services.sessions.rename(session.id, 'Landlord')
    await app.services.chat.idle()
    await app.services.titles.idle()
    expect(app.services.sessions.get(session.id).title).toBe('Landlord')
  })

  it('cleans what models answer into a title', () => {
    expect(cleanTitle('Title: **Sourdough Starter Care**.')).toBe('Sourdough Starter Care')
    expect(cleanTitle('# “Trip to Lisbon”\nSome explanation')).toBe('Trip to Lisbon')
    expect(cleanTitle('   \n  ')).toBe('')
    expect(
      cleanTitle('A very long title that goes on and on about many different things at the same time').length
    ).toBeLessThanOrEqual(61)
  })
})
