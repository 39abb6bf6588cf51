import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider } from '../../../../test/support/test-apps'
import { LONG_REPLY, useCompressionStack } from '../../../../test/support/compression-stack'
import type { App } from '../../app'
import { USER_NOTES_HEADING } from '../../../shared/domain/user-notes'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const NOTE = 'Keep this: the launch code is PELICAN-42 and Dana signs off on Fridays.'
const question = (i: number) => `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8)

/** Review before the swap: summaries wait as drafts, the user's text outlives later cascades. */
describe('summary drafts', () => {
  const { open, openPreparing, turn, lastChatRequest, summaryRequests } = useCompressionStack(() => fake)

  function openReviewing() {
    const opened = openPreparing()
    // The chat's own choice; the global default stays off.
    opened.app.services.sessions.update(opened.session.id, { reviewSummaries: true })
    return opened
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
    expect(check()).toBe(true)
  }
  const firstMessage = () => (lastChatRequest().body as { messages: Array<{ content: string }> }).messages[0]!.content
  /** The loss invariant on the last request: every message after the cutoff of the summary it carried is sent. */
  function nothingLeftOut(app: App, sessionId: string) {
    const body = lastChatRequest().body as { messages: Array<{ role: string; content: string }> }
    const carried = app.services.compression
      .snapshots(sessionId)
      .find(
        (s) => s.kind === 'summary' && s.status !== 'draft' && body.messages[0]!.content.includes(s.content.summaryText)
      )
    const path = app.services.chat.messages(sessionId)
    const expected = path.filter((m) => m.seq > (carried?.cutoffSeq ?? 0) && m.seq < path.at(-1)!.seq)
    expect(body.messages.filter((m) => m.role !== 'system')).toHaveLength(expected.length)
  }
  const applied = (app: App) =>
    app.services.compression
      .snapshots(app.services.sessions.list()[0]!.id)
      .filter((s) => s.kind === 'summary' && s.status !== 'draft')

  it('keeps a prepared summary as a draft, sends with the quick summary at the threshold, and carries the user’s edit through two cascades', async () => {
    const { app, events, session } = openReviewing()
    const state = () => app.services.compression.active(session.id)
    fake.script([{ for: 'summary', reply: '## Context\nMODEL DRAFT of the plan.' }])
    let i = 0
    const preparing = () => !!app.services.next.meter(session.id).preparedSummary || !!state().draft
    while (!preparing() && i < 40) await turn(app, session.id, question(++i), LONG_REPLY(i))
    // Written ahead below the threshold, then kept as a draft instead of waiting to be swapped in.
    await until(() => !!state().draft)
    expect(app.services.next.meter(session.id).preparedSummary).toBeNull()
    const draft = state().draft!
    // Nothing replaced yet: the draft says what it covers and what it would free.
    expect(state().summary).toBeNull()
    expect(draft.snapshot).toMatchObject({
      status: 'draft',
      content: { summaryText: expect.stringContaining('MODEL DRAFT') }
    })
    expect(draft.newMessages).toBe(draft.snapshot.content.messagesIncluded)
    expect(draft.freesTokens).toBeGreaterThan(0)
    expect(draft.tokens).toBeGreaterThan(0)
    expect(events.some((e) => e.event === 'compression.done')).toBe(false)

    // The threshold with the draft pending: the quick offline summary goes in, the draft stays open.
    while (!state().summary && i < 60) await turn(app, session.id, question(++i), LONG_REPLY(i))
    await app.services.compression.idle(session.id)
    await app.services.compression.backgroundSettled(session.id)
    expect(state().summary!.content.summarizer).toBe('extractive')
    expect(state().draft?.snapshot.id).toBe(draft.snapshot.id)
    expect(summaryRequests()).toHaveLength(1)

    // Edited and accepted. The quick summary covers more than the draft now, so the draft is not a
    // step back: it becomes the base of an offline cascade over the rest, carrying the user's text.
    const quick = state().summary!
    expect(state().draft!.newMessages).toBeLessThan(0)
    const { active } = await app.services.compression.acceptDraft(session.id, draft.snapshot.id, NOTE)
    expect(active.content).toMatchObject({
      userNotes: NOTE,
      baseSnapshotId: draft.snapshot.id,
      restoresSnapshotId: quick.id,
      messagesIncluded: quick.content.messagesIncluded
    })
    expect(active.content.summaryText).toContain(`${USER_NOTES_HEADING}\n\n${NOTE}`)
    expect(active.cutoffSeq).toBe(quick.cutoffSeq)
    expect(state()).toMatchObject({ summary: { id: active.id }, draft: null })
    const edited = app.services.compression.snapshots(session.id).find((s) => s.id === draft.snapshot.id)!
    expect(edited).toMatchObject({ status: 'superseded', content: { summaryText: NOTE, editedByUser: true } })
    await turn(app, session.id, 'And now?', 'Now this.')
    expect(firstMessage()).toContain('PELICAN-42')
    nothingLeftOut(app, session.id)

    // Two more cascades (auto runs over the accepted summary): the user's text is carried as written.
    const before = applied(app).length
    while (applied(app).length < before + 2 && i < 120) {
      fake.script([{ for: 'summary', reply: 'LATER MODEL SUMMARY' }])
      await turn(app, session.id, question(++i), LONG_REPLY(i))
      await app.services.compression.idle(session.id)
      // A newer draft is for the user to decide on; these cascades are the quick ones at the threshold.
    }
    expect(applied(app).length).toBeGreaterThanOrEqual(before + 2)
    await turn(app, session.id, 'What was the code?', 'PELICAN-42.')
    const text = state().summary!.content.summaryText
    expect(state().summary!.content).toMatchObject({ userNotes: NOTE })
    expect(state().summary!.content.editedByUser).toBeUndefined()
    expect(text.split(USER_NOTES_HEADING)).toHaveLength(2)
    expect(firstMessage()).toContain(NOTE)
    nothingLeftOut(app, session.id)
    // Never handed to a summarizer to condense: no summary request quoted it.
    expect(summaryRequests().some((r) => JSON.stringify(r.body).includes('PELICAN-42'))).toBe(false)
  })

  it('makes a draft when the user presses Summarize, which Discard drops without touching the context', async () => {
    const { app, session } = openReviewing()
    for (let i = 1; i <= 4; i++) await turn(app, session.id, question(i), LONG_REPLY(i))
    const tokens = app.services.next.meter(session.id).tokens
    const run = await app.services.compression.run(session.id, { summarizer: 'extractive' })
    expect(run.report.draft).toBe(true)
    expect(run.snapshot.status).toBe('draft')
    expect(app.services.compression.active(session.id)).toMatchObject({
      summary: null,
      draft: { snapshot: { id: run.snapshot.id } }
    })
    expect(app.services.next.meter(session.id).tokens).toBe(tokens)
    // Regenerated with a focus: still a draft, over the same span.
    fake.script([{ for: 'summary', reply: 'FOCUSED DRAFT' }])
    const again = await app.services.compression.regenerateDraft(session.id, 'the numbers')
    expect(again.snapshot).toMatchObject({ status: 'draft', cutoffSeq: run.snapshot.cutoffSeq })
    expect(again.snapshot.content).toMatchObject({ focus: 'the numbers' })
    expect(await app.services.compression.discardDraft(session.id, again.snapshot.id)).toEqual({ discarded: true })
    expect(app.services.compression.active(session.id)).toMatchObject({ summary: null, draft: null })
    // Accepted as it is: it takes the place of no summary, frees what it said, and Undo removes it.
    const next = await app.services.compression.run(session.id, { summarizer: 'extractive' })
    const frees = app.services.compression.active(session.id).draft!.freesTokens
    const { active } = await app.services.compression.acceptDraft(session.id, next.snapshot.id)
    expect(active).toMatchObject({ id: next.snapshot.id, status: 'active', content: { restoresSnapshotId: null } })
    expect(app.services.next.meter(session.id).tokens).toBeLessThan(tokens)
    // What the draft said it frees is what every compression records as its effect (the same `totalAfter`).
    expect(frees).toBe(tokens - active.content.contextTokensAfter)
    expect((await app.services.compression.undo(session.id)).active).toBeNull()
    expect(app.services.next.meter(session.id).tokens).toBe(tokens)
  })

  it('refuses to accept a draft whose span was edited since, leaving it to regenerate or discard', async () => {
    const { app, session } = openReviewing()
    for (let i = 1; i <= 4; i++) await turn(app, session.id, question(i), LONG_REPLY(i))
    const draft = (await app.services.compression.run(session.id, { summarizer: 'extractive' })).snapshot
    const second = app.services.chat.messages(session.id).find((m) => m.role === 'user' && m.seq > 1)!
    fake.script([{ reply: 'A new answer.' }])
    app.services.chat.edit(session.id, second.id, 'Question 2, asked differently.')
    await app.services.chat.idle()
    await expect(app.services.compression.acceptDraft(session.id, draft.id)).rejects.toMatchObject({ code: 'conflict' })
    expect(app.services.compression.active(session.id)).toMatchObject({
      summary: null,
      draft: { snapshot: { id: draft.id } }
    })
  })

  it('marks an edited active summary as the user’s, undoes it, and carries it through export and import', async () => {
    const { app, session } = open()
    for (let i = 1; i <= 4; i++) await turn(app, session.id, question(i), LONG_REPLY(i))
    const first = await app.services.compression.run(session.id, { summarizer: 'extractive' })
    const { active } = await app.services.compression.editSummary(session.id, NOTE)
    expect(active.content).toMatchObject({
      summaryText: NOTE,
      editedByUser: true,
      restoresSnapshotId: first.snapshot.id
    })
    expect(active.cutoffSeq).toBe(first.snapshot.cutoffSeq)

    const { text } = app.services.sessions.export(session.id, 'json')
    const res = await app.router.call('sessions.import', { text })
    expect(res).toMatchObject({ ok: true })
    const imported = app.services.compression.active((res as { data: { id: string } }).data.id).summary!
    expect(imported.content).toMatchObject({ summaryText: NOTE, userNotes: NOTE, editedByUser: true })

    expect((await app.services.compression.undo(session.id)).active?.id).toBe(first.snapshot.id)
  })

  it('refuses, with the numbers, a summary the user wrote that could not go in a request whole', async () => {
    const { app, session } = open()
    for (let i = 1; i <= 4; i++) await turn(app, session.id, question(i), LONG_REPLY(i))
    const first = await app.services.compression.run(session.id, { summarizer: 'extractive' })
    const huge = 'The lighthouse keeper kept a log of every ship. '.repeat(400)
    await expect(app.services.compression.editSummary(session.id, huge)).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(
        /^This summary would take \d+% of the [\d,]+ tokens .* at most 50%.* Shorten it by about [\d,]+ tokens\.$/
      )
    })
    // Nothing was written: the summary in force is the one before, and a send summarizes no more than before.
    expect(app.services.compression.active(session.id).summary?.id).toBe(first.snapshot.id)
  })
})
