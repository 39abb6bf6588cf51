import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { manualClock } from '../../../../test/support/temp-dir'
import { useTestApps } from '../../../../test/support/test-apps'
import { SEARCH_CHATS, SEARCH_PASSAGES, type SearchPassage } from '../../../shared/contract/sessions'
import { snippetRanges, wordRanges } from './snippet-ranges'

const say = (app: App, sessionId: string, role: 'user' | 'assistant', text: string) =>
  app.services.chat.append(sessionId, { role, parts: [{ type: 'text', text }] })

/** The words a passage marks, as the sidebar would highlight them. */
const marked = (p: SearchPassage) => p.ranges.map(([start, end]) => p.text.slice(start, end))

describe('search across chats with passages', () => {
  const openApp = useTestApps()

  it('answers the best few passages of each chat, grouped by chat, best chats first, with totals over every chat', async () => {
    const clock = manualClock()
    const app = openApp({ clock })
    const { sessions } = app.services
    const CHATS = SEARCH_CHATS + 10
    const made: string[] = []
    let messages = 0
    for (let i = 0; i < CHATS; i++) {
      const chat = sessions.create(`Kitchen log ${i}`)
      made.push(chat.id)
      // Chat i holds 1 + i % 5 matching messages between two that do not match.
      await say(app, chat.id, 'user', 'What did we cook today?')
      for (let n = 0; n <= i % 5; n++) {
        await say(
          app,
          chat.id,
          'assistant',
          `Day ${n}: rice with saffron, and a long note about the market and the weather.`
        )
        messages++
      }
      await say(app, chat.id, 'user', 'Thanks, see you tomorrow.')
      clock.advance(1000)
    }
    // The best passage of all: short and all about the word, in an older chat.
    await say(app, made[3]!, 'user', 'Saffron? Saffron!')
    messages++

    const found = sessions.search('saffron')
    expect(found).toMatchObject({ chats: CHATS, matches: messages, countIsLowerBound: false })
    expect(found.results).toHaveLength(SEARCH_CHATS)
    expect(found.results[0]!.id).toBe(made[3])
    expect(new Set(found.results.map((r) => r.id)).size).toBe(SEARCH_CHATS)
    for (const result of found.results) {
      const i = made.indexOf(result.id)
      const own = app.services.chat.messages(result.id)
      expect(result.count).toBe(1 + (i % 5) + (i === 3 ? 1 : 0))
      expect(result.passages).toHaveLength(Math.min(SEARCH_PASSAGES, result.count))
      for (const passage of result.passages) {
        // Every passage belongs to its chat, is where it says, and marks the word found.
        const message = own.find((m) => m.id === passage.messageId)!
        expect(message).toMatchObject({ seq: passage.seq, role: passage.role, createdAt: passage.createdAt })
        expect(marked(passage).map((w) => w.toLowerCase())).toContain('saffron')
        expect(passage.text).not.toContain('\u0002')
        expect(passage.text).not.toContain('\u0003')
      }
    }
    // Best first within a chat: the short message before the long ones.
    expect(found.results[0]!.passages[0]!.text).toBe('Saffron? Saffron!')
    expect(marked(found.results[0]!.passages[0]!)).toEqual(['Saffron', 'Saffron'])
  })

  it('still lists a chat found by its title only, and gives a title match its passages however it ranks', async () => {
    const app = openApp()
    const { sessions } = app.services
    const empty = sessions.create('Lighthouse visit')
    const titled = sessions.create('Lighthouse keeper')
    await say(
      app,
      titled.id,
      'user',
      'A long story: the lighthouse keeper kept a log of the ships, the tides and the lamp.'
    )
    const best = sessions.create('Coast')
    await say(app, best.id, 'user', 'Lighthouse, lighthouse.')

    // One chat per answer: the title matches still come first with their passages.
    const found = sessions.search('lighthouse')
    expect(found.results.map((r) => [r.title, r.titleMatch, r.passages.length, r.count])).toEqual([
      ['Lighthouse keeper', true, 1, 1],
      ['Lighthouse visit', true, 0, 0],
      ['Coast', false, 1, 1]
    ])
    // The messages the chats' counts add up to, and the titles apart.
    expect(found).toMatchObject({ chats: 3, matches: 1 + 0 + 1, titleMatches: 2 })
    expect(found.matches).toBe(found.results.reduce((sum, r) => sum + r.count, 0))
    expect(found.results.map((r) => r.titleRanges)).toEqual([[[0, 10]], [[0, 10]], []])
    expect(sessions.search('lighthouse', 1).results.map((r) => r.id)).toEqual([titled.id])
    expect(empty.id).toBeTruthy()
  })

  it('reads quotes, operators and markup literally: never a syntax error, never markup in a passage', async () => {
    const app = openApp()
    const { sessions } = app.services
    const chat = sessions.create('Snippets')
    await say(app, chat.id, 'user', 'Render <b onclick="x()">bold</b> NEAR the "quoted" text AND OR NOT * ^ text:col')
    for (const query of [
      '"',
      '""',
      'NEAR(',
      'bold NEAR(',
      'AND',
      'OR NOT',
      '*',
      '^',
      'text:col',
      'chat : x',
      '(',
      ')'
    ]) {
      const answer = await app.router.call('sessions.search', { query })
      expect(answer.ok, query).toBe(true)
    }
    const found = sessions.search('"bold')
    const passage = found.results[0]!.passages[0]!
    expect(passage.text).toContain('<b onclick="x()">bold</b>')
    expect(marked(passage)).toEqual(['bold'])
  })
})

describe('snippetRanges', () => {
  it('turns marks into ranges over plain text, one space for any whitespace', () => {
    expect(snippetRanges('…the \u0002quick\u0003\n\nbrown \u0002fox\u0003')).toEqual({
      text: '…the quick brown fox',
      ranges: [
        [5, 10],
        [17, 20]
      ]
    })
  })

  it('ends an open mark with the text and drops stray or empty ones', () => {
    expect(snippetRanges('a \u0002b')).toEqual({ text: 'a b', ranges: [[2, 3]] })
    expect(snippetRanges('x\u0003y\u0002\u0003z')).toEqual({ text: 'xyz', ranges: [] })
  })
})

describe('wordRanges', () => {
  it('finds every word typed in a title, ignoring case, overlaps merged, never reading a word as a pattern', () => {
    expect(wordRanges('Tea and TEA cakes', ['tea', 'cake'])).toEqual([
      [0, 3],
      [8, 11],
      [12, 16]
    ])
    expect(wordRanges('Lighthouse', ['light', 'ghthou'])).toEqual([[0, 8]])
    expect(wordRanges('a.b (c)', ['.', '(c)', '*'])).toEqual([
      [1, 2],
      [4, 7]
    ])
  })
})
