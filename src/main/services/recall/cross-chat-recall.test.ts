import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const FERRY = 'We booked the early ferry to Hydra, it leaves Piraeus at 7:40 from gate E8.'
const MARCH_3 = new Date(2026, 2, 3, 10, 0).getTime()

/** What the model was sent for the latest reply, as text. */
const lastRequest = () => JSON.stringify(fake.requests.at(-1)!.body)

describe('Recall across the chats of a project', () => {
  const openApp = useTestApps()

  async function say(app: App, sessionId: string, texts: string[], start = MARCH_3) {
    for (const [i, text] of texts.entries())
      await app.services.chat.append(sessionId, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text }],
        createdAt: start + i * 60_000
      })
  }

  async function setUp() {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const project = app.services.projects.create('Greece 2026')
    const trip = app.services.sessions.create('Trip planning')
    const packing = app.services.sessions.create('Packing list')
    const outside = app.services.sessions.create('Work notes')
    for (const s of [trip, packing]) app.services.sessions.update(s.id, { projectId: project.id })
    await say(app, trip.id, ['Which boat should we take to the island?', FERRY, 'Great, thanks!'])
    await say(app, outside.id, ['Remind me about the budget review on Friday.', 'Noted: budget review Friday.'])
    return { app, project, trip, packing, outside }
  }

  const ask = async (app: App, sessionId: string, text: string) => {
    fake.script([{ reply: 'Noted.' }])
    app.services.chat.send(sessionId, text)
    await app.services.chat.idle()
    return lastRequest()
  }

  it('brings a passage of another chat of the project into the request, labelled with its title and date', async () => {
    const { app, project, packing, trip } = await setUp()
    // Off until the project (or the chat) allows it.
    expect(await ask(app, packing.id, 'When does the ferry to Hydra leave Piraeus?')).not.toContain('gate E8')

    app.services.projects.update(project.id, { recallAcrossChats: true })
    const sent = await ask(app, packing.id, 'When does the ferry to Hydra leave Piraeus?')
    expect(sent).toContain('[From the chat \\"Trip planning\\", 3 March 2026]')
    expect(sent).toContain('gate E8')

    // The meter and the inspector see the same passage, with its chat and date.
    const usage = app.services.next.meter(packing.id, 'Which gate does the Hydra ferry use?')
    // The hit, with the question before it as context.
    expect(usage.crossChat?.passages).toEqual([
      expect.objectContaining({
        chatTitle: 'Trip planning',
        role: 'user',
        text: 'Which boat should we take to the island?'
      }),
      expect.objectContaining({ chatTitle: 'Trip planning', date: '3 March 2026', role: 'assistant', text: FERRY })
    ])
    // The reply's marks (which open this chat's full history) name only this chat's messages; the
    // note under the reply names the other chat's, with its title, to open them there.
    const replies = app.services.recall.replies(packing.id)
    expect(replies.flatMap((r) => r.messageIds)).toEqual([])
    expect(replies.flatMap((r) => r.crossChat)).toEqual([
      expect.objectContaining({ sessionId: trip.id, chatTitle: 'Trip planning', role: 'user' }),
      expect.objectContaining({ sessionId: trip.id, chatTitle: 'Trip planning', role: 'assistant', preview: FERRY })
    ])
    const [reply] = replies
    expect(app.services.chat.messages(packing.id).find((m) => m.id === reply!.replyId)?.role).toBe('assistant')

    // A message deleted since is no longer named.
    app.services.sessions.remove(trip.id)
    expect(app.services.recall.replies(packing.id).flatMap((r) => r.crossChat)).toEqual([])
  })

  it('never reaches a chat outside the project, nor one the chat left', async () => {
    const { app, project, trip, outside } = await setUp()
    app.services.projects.update(project.id, { recallAcrossChats: true })
    // A chat outside the project never gets the project's passages, even when it allows Recall across chats.
    app.services.sessions.update(outside.id, { recallAcrossChats: true })
    expect(await ask(app, outside.id, 'When does the ferry to Hydra leave Piraeus?')).not.toContain('gate E8')
    // Moved out of the project, the chat that held the passage is out of reach too.
    app.services.sessions.update(trip.id, { projectId: null })
    const packing = app.services.sessions.list().find((s) => s.title === 'Packing list')!
    expect(await ask(app, packing.id, 'When does the ferry to Hydra leave Piraeus?')).not.toContain('gate E8')
  })

  it('a single chat can allow it, or refuse it, whatever the project says', async () => {
    const { app, project, packing } = await setUp()
    app.services.sessions.update(packing.id, { recallAcrossChats: true })
    expect(await ask(app, packing.id, 'When does the ferry to Hydra leave?')).toContain('gate E8')
    app.services.projects.update(project.id, { recallAcrossChats: true })
    app.services.sessions.update(packing.id, { recallAcrossChats: false })
    expect(await ask(app, packing.id, 'When does the ferry to Hydra leave?')).not.toContain('gate E8')
  })

  it('leaves a passage out of the next request only', async () => {
    const { app, project, trip, packing } = await setUp()
    app.services.projects.update(project.id, { recallAcrossChats: true })
    const question = 'When does the ferry to Hydra leave Piraeus?'
    const usage = app.services.next.meter(packing.id, question)
    const ferry = usage.crossChat!.passages.find((p) => p.text === FERRY)!
    expect(ferry.sessionId).toBe(trip.id)

    app.services.recall.leaveOut(packing.id, ferry.messageId, true)
    expect(app.services.next.meter(packing.id, question).crossChat?.leftOut).toEqual([ferry])
    expect(await ask(app, packing.id, question)).not.toContain('gate E8')
    // Sent: the passage comes back for the request after.
    expect(await ask(app, packing.id, question)).toContain('gate E8')
  })

  it('deleting a project keeps its chats, unfiled', async () => {
    const { app, project, trip, packing } = await setUp()
    expect(app.services.projects.remove(project.id)).toEqual({ id: project.id, chats: 2 })
    expect([app.services.sessions.get(trip.id).projectId, app.services.sessions.get(packing.id).projectId]).toEqual([
      null,
      null
    ])
    expect(app.services.projects.list()).toEqual([])
  })
})
