import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { withDraft } from '../conversation/draft-conversation'
import { buildModelRequest } from '../conversation/request-builder'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

// Plain words, no names or numbers: the kind of aside an extractive summary leaves out.
const DETAIL = 'oh and the cat of the old lighthouse keeper is called barnacle, he sleeps by the stove all day.'
const TOPICS = ['Falcon', 'Heron', 'Osprey', 'Kestrel', 'Merlin', 'Condor', 'Harrier', 'Puffin']
const PEOPLE = ['Dana Whitfield', 'Ravi Menon', 'Ines Duarte', 'Tomasz Nowak', 'Aiko Sato', 'Lena Brandt']

/** A long chat whose one message about the lighthouse is buried among many others. */
async function fillChat(app: App, sessionId: string, start: number, stated?: string) {
  for (let i = 0; i < 64; i++) {
    const topic = `Project ${TOPICS[i % TOPICS.length]!}-${i}`
    const text =
      i === 5
        ? DETAIL
        : `${i === 0 && stated ? `${stated} ` : ''}${topic} ships on 2024-0${(i % 9) + 1}-1${i % 10} with a budget of $${1000 + i * 37},000 approved by ${PEOPLE[i % PEOPLE.length]!}. ` +
          `Decision: ${topic} must pass the SOC 2 audit #${4400 + i} before launch.`
    await app.services.chat.append(sessionId, {
      role: i % 2 ? 'assistant' : 'user',
      parts: [{ type: 'text', text }],
      createdAt: start + i * 60_000
    })
  }
}

describe('recall of summarized originals (DESIGN §11)', () => {
  const openApp = useTestApps()

  async function compressedChat(options: { stated?: string; start?: number } = {}) {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'tiny-4k' })
    await fillChat(app, session.id, options.start ?? new Date(2023, 4, 8, 13, 56).getTime(), options.stated)
    await app.services.compression.run(session.id, { summarizer: 'extractive', retentionOverride: 400 })
    return { app, session }
  }

  const request = (app: App, sessionId: string, text: string) => {
    const conv = withDraft(app.services.usage.conversation(sessionId), text)
    return { conv, request: buildModelRequest(conv, app.services.recall.forRequest(conv)) }
  }
  /** Every text the request carries: whole string contents and each text part. */
  const texts = (r: ReturnType<typeof buildModelRequest>) =>
    r.messages.flatMap((m) =>
      typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : []))
    )
  /** The recalled day (heading and passages) that holds a text. */
  const dayHolding = (recalled: string | undefined, text: string) =>
    recalled?.split(/\n\n(?=\[)/).find((day) => day.includes(text))

  it('brings back, verbatim and dated, a detail only the summarized originals hold, within budget', async () => {
    const { app, session } = await compressedChat()
    const summary = app.services.usage.conversation(session.id).summary!
    // The premise: the summary lost the detail, the original is still stored.
    expect(summary.content.summaryText).not.toContain('barnacle')

    const { conv, request: r } = request(app, session.id, "What is the name of the lighthouse keeper's cat?")
    const recalled = texts(r).find((t) => t.startsWith('Recalled from earlier'))
    expect(dayHolding(recalled, DETAIL)).toMatch(/^\[8 May 2023\]\n/)
    expect(recalled).toContain(`\nassistant: ${DETAIL}`)
    expect(r.recalledIds).toHaveLength(new Set(r.recalledIds).size)
    expect(r.context.breakdown.recalled).toBeGreaterThan(0)
    expect(r.context.breakdown.recalled).toBeLessThanOrEqual(Math.floor(conv.budget.usable * 0.15))
    expect(r.context.tokens).toBeLessThanOrEqual(conv.budget.usable)
    // Order: summary, the retained messages, then the question with the recalled passages after it
    // (what changes every turn last, so the rest is a prefix the provider's cache serves).
    expect(r.messages[0]).toMatchObject({ role: 'system' })
    expect(r.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: "What is the name of the lighthouse keeper's cat?" },
        { type: 'text', text: recalled }
      ]
    })
    expect(r.stableMessages).toBe(r.messages.length - 1)

    // The meter names the same row while the question is still a draft, once typing pauses (each
    // keystroke stays a sum of stored counts and plans no recall).
    const draft = "What is the name of the lighthouse keeper's cat?"
    const typing = await app.router.call('chat.context', { sessionId: session.id, draft })
    expect(typing).toMatchObject({ ok: true, data: { breakdown: { recalled: 0 }, recalledIds: [] } })
    const paused = await app.router.call('chat.context', { sessionId: session.id, draft, recall: true })
    expect(paused).toMatchObject({
      ok: true,
      data: { breakdown: { recalled: r.context.breakdown.recalled }, recalledIds: r.recalledIds }
    })
  })

  it('dates an imported chat by the date its first message states', async () => {
    const { app, session } = await compressedChat({
      stated: '(1:56 pm on 3 June, 2022)',
      start: new Date(2026, 10, 22, 9, 0).getTime()
    })
    const { request: r } = request(app, session.id, 'Where does the lighthouse cat sleep?')
    expect(dayHolding(texts(r).join('\n'), DETAIL)).toMatch(/^\[3 June 2022\]\n/)
  })

  it('plans the same when the names of a message were learned first, a few at a time', async () => {
    const text = 'Thanks, Dana! And what budget did Ravi Menon approve for Project Heron before the SOC 2 audit?'
    const learnedFirst = await compressedChat()
    const { recall, sessions } = learnedFirst.app.services
    await recall.learnNames(sessions.get(learnedFirst.session.id), text)
    const asked = await compressedChat()
    const planned = texts(request(asked.app, asked.session.id, text).request)
    expect(planned.join('\n')).toContain('Heron')
    expect(texts(request(learnedFirst.app, learnedFirst.session.id, text).request)).toEqual(planned)
  })

  it('recalls nothing when recall is off, globally or for the chat, and the chat may turn it back on', async () => {
    const { app, session } = await compressedChat()
    const question = "What is the keeper's cat called?"
    app.services.settings.update({ recallEnabled: false })
    expect(request(app, session.id, question).request.recalledIds).toEqual([])
    expect(JSON.stringify(request(app, session.id, question).request.messages)).not.toContain('barnacle')
    app.services.sessions.update(session.id, { recall: true })
    expect(JSON.stringify(request(app, session.id, question).request.messages)).toContain('barnacle')
    app.services.settings.update({ recallEnabled: true })
    app.services.sessions.update(session.id, { recall: false })
    const off = request(app, session.id, question).request
    expect(off.context.breakdown.recalled).toBe(0)
    expect(JSON.stringify(off.messages)).not.toContain('barnacle')
  })

  it('sends the recalled passages to the model and remembers them for the reply', async () => {
    const { app, session } = await compressedChat()
    fake.script([{ reply: 'He is called barnacle.' }])
    const { reply } = await app.services.chat.send(session.id, "What is the keeper's cat called?")
    await app.services.chat.idle()
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('barnacle')
    const remembered = app.services.recall.replies(session.id)
    const detailId = app.services.chat
      .messages(session.id)
      .find((m) => m.parts.some((p) => p.type === 'text' && p.text === DETAIL))!.id
    expect(remembered).toEqual([{ replyId: reply.id, messageIds: expect.arrayContaining([detailId]), crossChat: [] }])
  })
})
