import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { messageText, type ChatMessage } from '../../../shared/domain/chat-message'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const texts = (messages: ChatMessage[]) => messages.map((m) => messageText(m.parts))
/** What the last generation request carried, as text. */
const lastRequest = () => JSON.stringify(fake.requests.filter((r) => r.inputTokens !== undefined).at(-1)!.body)

describe('versions of messages: regenerate and edit keep what came before', () => {
  const openApp = useTestApps()

  function open() {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    return { app, id: session.id }
  }

  async function turn(app: App, id: string, text: string, reply: string) {
    fake.script([{ reply }])
    app.services.chat.send(id, text)
    await app.services.chat.idle()
  }

  /**
   * Switches a version and checks the page it answers with: the conversation from the switched
   * message on, everything before it unchanged. Returns the whole conversation.
   */
  function switchTo(app: App, id: string, messageId: string, number: number) {
    const before = app.services.chat.messages(id)
    const position = before.findIndex((m) => m.id === messageId)
    const page = app.services.chat.switchVersion(id, messageId, number)
    const whole = app.services.chat.messages(id)
    expect(whole.slice(0, position)).toEqual(before.slice(0, position))
    expect(page.messages).toEqual(whole.slice(position))
    expect(page).toMatchObject({ hasOlder: position > 0, hasNewer: false })
    return whole
  }

  it('regenerates a reply as version 2/2 and switches back to 1/2 with the turns that followed it', async () => {
    const { app, id } = open()
    await turn(app, id, 'Name a colour', 'Blue')
    await turn(app, id, 'And a fruit?', 'Apple')
    const [, blue] = app.services.chat.messages(id)

    fake.script([{ reply: 'Green' }])
    const { reply } = app.services.chat.regenerate(id, blue!.id)
    expect(reply.version).toEqual({ number: 2, count: 2 })
    await app.services.chat.idle()
    // The new reply was asked for with the history before it only.
    expect(lastRequest()).toContain('Name a colour')
    expect(lastRequest()).not.toContain('Blue')
    expect(lastRequest()).not.toContain('And a fruit?')

    const now = app.services.chat.messages(id)
    expect(texts(now)).toEqual(['Name a colour', 'Green'])
    expect(now[1]!.version).toEqual({ number: 2, count: 2 })

    const back = switchTo(app, id, now[1]!.id, 1)
    expect(texts(back)).toEqual(['Name a colour', 'Blue', 'And a fruit?', 'Apple'])
    expect(back[1]!.version).toEqual({ number: 1, count: 2 })
    // The next request follows the version in use.
    await turn(app, id, 'And a vegetable?', 'Leek')
    expect(lastRequest()).toContain('Apple')
    expect(lastRequest()).not.toContain('Green')
    expect(texts(switchTo(app, id, back[1]!.id, 2))).toEqual(['Name a colour', 'Green'])
  })

  it('edits a user message: the original and its turns stay as version 1, and the meter follows the version in use', async () => {
    const { app, id } = open()
    await turn(app, id, 'Plan a trip to Oslo', 'Oslo it is')
    await turn(
      app,
      id,
      'Three days, please',
      'Day one: the fjord. ' + 'More detail about the museums and the harbour. '.repeat(60)
    )
    await turn(app, id, 'Any food tips?', 'Try the fish soup')
    const before = app.services.next.meter(id).tokens
    const days = app.services.chat.messages(id)[2]!

    fake.script([{ reply: 'Two days then' }])
    const { message } = app.services.chat.edit(id, days.id, 'Two days only')
    expect(message.version).toEqual({ number: 2, count: 2 })
    await app.services.chat.idle()
    const edited = app.services.chat.messages(id)
    expect(texts(edited)).toEqual(['Plan a trip to Oslo', 'Oslo it is', 'Two days only', 'Two days then'])
    await expect.poll(() => app.services.next.meter(id).tokens).toBeLessThan(before - 500)
    // Search and the sidebar see the version in use only.
    expect(app.services.history.search(id, 'fish soup').hits).toHaveLength(0)
    expect(app.services.sessions.search('fish soup').results).toHaveLength(0)
    expect(app.services.sessions.list().find((s) => s.id === id)!.messageCount).toBe(4)

    const original = switchTo(app, id, edited[2]!.id, 1)
    expect(texts(original)).toEqual([
      'Plan a trip to Oslo',
      'Oslo it is',
      'Three days, please',
      expect.stringMatching(/^Day one/),
      'Any food tips?',
      'Try the fish soup'
    ])
    expect(app.services.history.search(id, 'fish soup').hits).toHaveLength(1)
    expect(app.services.sessions.search('fish soup').results).toHaveLength(1)
    await expect.poll(() => app.services.next.meter(id).tokens).toBe(before)
  })

  it('keeps a version made inside another version when switching the outer one back and forth', async () => {
    const { app, id } = open()
    await turn(app, id, 'First question', 'First answer')
    const first = app.services.chat.messages(id)[0]!
    fake.script([{ reply: 'Answer to the edit' }])
    app.services.chat.edit(id, first.id, 'First question, edited')
    await app.services.chat.idle()
    const answer = app.services.chat.messages(id)[1]!
    fake.script([{ reply: 'Second try at it' }])
    app.services.chat.regenerate(id, answer.id)
    await app.services.chat.idle()
    const inner = app.services.chat.messages(id)
    expect(texts(inner)).toEqual(['First question, edited', 'Second try at it'])
    expect(inner[1]!.version).toEqual({ number: 2, count: 2 })

    expect(texts(switchTo(app, id, inner[0]!.id, 1))).toEqual(['First question', 'First answer'])
    const again = switchTo(app, id, first.id, 2)
    expect(texts(again)).toEqual(['First question, edited', 'Second try at it'])
    expect(texts(switchTo(app, id, again[1]!.id, 1))).toEqual(['First question, edited', 'Answer to the edit'])
  })

  it('refuses to change a summarized message, in words, and changes nothing', async () => {
    const { app, id } = open()
    for (let i = 0; i < 4; i++) await turn(app, id, `Question ${i}`, `Answer ${i}`)
    await app.services.compression.run(id, { summarizer: 'extractive', retentionOverride: 20 })
    const summarized = app.services.chat.messages(id)[0]!
    expect(() => app.services.chat.edit(id, summarized.id, 'changed')).toThrow(/already summarized/)
    expect(() => app.services.chat.regenerate(id, app.services.chat.messages(id)[1]!.id)).toThrow(/already summarized/)
    expect(texts(app.services.chat.messages(id))).toHaveLength(8)
  })
})
