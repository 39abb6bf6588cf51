import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { manualClock } from '../../../../test/support/temp-dir'
import { useTestApps } from '../../../../test/support/test-apps'
import type { SessionSearch, SessionSearchResult } from '../../../shared/contract/sessions'
import type { SessionPage } from './sessions-service'

/** What each result says, in order (its id unless told). */
function ids(found: SessionSearch, pick: (r: SessionSearchResult) => unknown = (r) => r.id): unknown[] {
  return found.results.map(pick)
}

const say = (app: App, sessionId: string, role: 'user' | 'assistant', text: string) =>
  app.services.chat.append(sessionId, { role, parts: [{ type: 'text', text }] })

describe('searching chats by their content', () => {
  const openApp = useTestApps()

  it('finds chats by a word in a message body, best match first, with the passage and the message to open', async () => {
    const clock = manualClock()
    const app = openApp({ clock })
    const { sessions } = app.services
    const soup = sessions.create('Dinner plans')
    await say(app, soup.id, 'user', 'What should I cook on Friday?')
    await say(app, soup.id, 'assistant', 'A lentil soup with cardamom and a little lemon would be lovely.')
    clock.advance(1000)
    const tea = sessions.create('Morning routine')
    await say(app, tea.id, 'user', 'Cardamom tea, cardamom buns, cardamom everything: is that too much cardamom?')
    clock.advance(1000)
    const unrelated = sessions.create('Taxes')
    await say(app, unrelated.id, 'user', 'When is the filing deadline?')

    const found = sessions.search('cardamom')
    expect(found.results.map((r) => r.title)).toEqual(['Morning routine', 'Dinner plans'])
    expect(found).toMatchObject({ matches: 2, chats: 2, countIsLowerBound: false })
    const dinner = found.results[1]!
    expect(dinner).toMatchObject({ titleMatch: false, count: 1 })
    const passage = dinner.passages[0]!
    expect(passage).toMatchObject({ seq: 2, role: 'assistant' })
    expect(passage.ranges.map(([start, end]) => passage.text.slice(start, end))).toEqual(['cardamom'])
    const messages = app.services.chat.messages(soup.id)
    expect(passage.messageId).toBe(messages[1]!.id)
    expect(passage.createdAt).toBe(messages[1]!.createdAt)
    // Still a full sidebar entry.
    expect(dinner).toMatchObject({
      messageCount: 2,
      lastMessagePreview: 'A lentil soup with cardamom and a little lemon would be lovely.'
    })
  })

  it('puts title matches first, needs every word, and reads quotes and operators literally', async () => {
    const app = openApp()
    const { sessions } = app.services
    const titled = sessions.create('Cardamom suppliers')
    const body = sessions.create('Shopping')
    await say(app, body.id, 'user', 'Buy green cardamom pods and saffron.')

    expect(ids(sessions.search('cardamom'), (r) => [r.id, r.titleMatch])).toEqual([
      [titled.id, true],
      [body.id, false]
    ])
    expect(ids(sessions.search('cardamom saffron'))).toEqual([body.id])
    expect(sessions.search('cardamom vanilla').results).toEqual([])
    // Prefixes match as the user types.
    expect(ids(sessions.search('saff'))).toEqual([body.id])
    expect(ids(sessions.search('"pods NEAR('))).toEqual([])
    expect(ids(sessions.search('"pods'))).toEqual([body.id])
    expect(await app.router.call('sessions.search', { query: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
  })

  it('ranks every match of a word best first, an old chat included, with exact counts', async () => {
    const clock = manualClock()
    const app = openApp({ clock })
    const { sessions } = app.services
    const old = sessions.create('Old notes')
    await say(app, old.id, 'user', 'mackerel')
    const chats = [0, 1, 2].map((i) => sessions.create(`Fishing ${i}`))
    for (const [i, chat] of chats.entries()) {
      for (let n = 0; n < 4; n++)
        await say(app, chat.id, 'user', `Day ${n}: the boat came back with mackerel and a long story about the tide.`)
      // The best hit of each chat: short, and all about the word.
      if (i === 1) await say(app, chat.id, 'assistant', 'Mackerel, mackerel, mackerel.')
      clock.advance(1000)
    }

    // Everything ranked: the exact bm25 order and counts, the lone old message included.
    const all = sessions.search('mackerel').results
    expect(all[0]!.id).toBe(chats[1]!.id)
    expect(all.map((r) => r.id)).toContain(old.id)
    expect(all.find((r) => r.id === chats[0]!.id)).toMatchObject({ count: 4, countIsLowerBound: false })
  })

  it('pages the chat list with a cursor, most recent first, without repeats or gaps', async () => {
    const clock = manualClock()
    const app = openApp({ clock })
    const { sessions } = app.services
    const made = Array.from({ length: 7 }, (_, i) => {
      // Two chats share each moment: the cursor still orders them.
      if (i % 2 === 0) clock.advance(1000)
      return sessions.create(`Chat ${i}`)
    })
    const pages: string[][] = []
    let cursor: string | undefined
    do {
      const page = await app.router.call('sessions.list', { limit: 3, ...(cursor ? { cursor } : {}) })
      if (!page.ok) throw new Error(page.error.message)
      const data = page.data as SessionPage
      pages.push(data.sessions.map((s) => s.title))
      cursor = data.nextCursor ?? undefined
    } while (cursor)
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1])
    expect(pages.flat()).toEqual(sessions.list().map((s) => s.title))
    expect(new Set(pages.flat()).size).toBe(made.length)
    // Work over every chat reads their settings without the sidebar's counts and previews.
    expect(sessions.all().map((s) => s.id)).toHaveLength(made.length)
    expect(sessions.all()[0]).not.toHaveProperty('messageCount')
    expect(await app.router.call('sessions.list', { cursor: 'nonsense' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
  })

  it('forgets a deleted chat', async () => {
    const app = openApp()
    const { sessions } = app.services
    const chat = sessions.create()
    await say(app, chat.id, 'user', 'The harbour ferry leaves at seven.')
    expect(sessions.search('ferry').results).toHaveLength(1)
    sessions.remove(chat.id)
    expect(sessions.search('ferry').results).toEqual([])
  })
})

describe('sidebar previews', () => {
  const openApp = useTestApps()

  it('show the last message as plain text, not Markdown', async () => {
    const app = openApp()
    const chat = app.services.sessions.create()
    await say(
      app,
      chat.id,
      'assistant',
      '## Context\n\nThe **staging** database uses `port 5433`.\n\n- [docs](https://example.com)'
    )
    expect(app.services.sessions.list()[0]!.lastMessagePreview).toBe(
      'Context The staging database uses port 5433. docs'
    )
  })
})
