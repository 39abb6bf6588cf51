import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { useFakeProvider } from '../../../../test/support/test-apps'
import { LONG_REPLY, useCompressionStack } from '../../../../test/support/compression-stack'
import { buildModelRequest } from '../conversation/request-builder'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('compression against the real stack', () => {
  const { open, turn, lastChatRequest, summaryRequests } = useCompressionStack(() => fake)

  it('sends at once past the threshold while the request still fits, and summarizes right after it', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    const question = 'And the codename again?'
    // Stored as an import stores them (no request), up to just past the threshold.
    for (let i = 0; ; i++) {
      const usage = app.services.next.meter(session.id, question, { recall: false })
      if (usage.tokens > usage.budget.threshold) {
        expect(usage.tokens).toBeLessThanOrEqual(usage.budget.usable)
        break
      }
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: `Note ${i}: the codename is BLUE HERON and the plan has ${i} steps.` }]
      })
    }
    const stored = app.services.chat.messages(session.id).length
    await turn(app, session.id, question, 'BLUE HERON.')
    // That request carried every message, unsummarized: nothing had to wait for a summary.
    const sent = (lastChatRequest().body as { messages: Array<{ role: string; content: unknown }> }).messages
    expect(sent.filter((m) => m.role !== 'system')).toHaveLength(stored + 1)
    expect(JSON.stringify(sent)).not.toContain('Summary of the earlier conversation')
    // The summary the send left for later lands, and the next request carries it.
    await app.services.compression.idle(session.id)
    expect(app.services.compression.active(session.id).summary).not.toBeNull()
    await turn(app, session.id, 'Thanks.', 'You are welcome.')
    expect(JSON.stringify(lastChatRequest().body)).toContain('Summary of the earlier conversation')
  })

  it('summarizes right after a reply that takes the context past the threshold, not at the next send', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    // Stored as an import stores them (no request), up to just under the threshold.
    for (let i = 0; ; i++) {
      const usage = app.services.next.meter(session.id, '', { recall: false })
      if (usage.tokens > usage.budget.threshold - 300) break
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: `Note ${i}: the codename is BLUE HERON and the plan has ${i} steps.` }]
      })
    }
    const requests = fake.requests.length
    // A short question (under the threshold), a long answer (past it).
    await turn(app, session.id, 'Go on?', 'A long answer. '.repeat(120))
    await app.services.compression.idle(session.id)
    const usage = app.services.next.meter(session.id, '', { recall: false })
    expect(app.services.compression.active(session.id).summary).not.toBeNull()
    expect(usage.tokens).toBeLessThan(usage.budget.threshold)
    // Only the reply's request was sent: the offline summary went in without another send.
    expect(fake.requests.length - requests).toBe(1)
  })

  it('compresses automatically before the request that would pass the threshold', async () => {
    const { app, events, session } = open()
    // The quick path is under test: a summary written ahead (its own test) would win the race with it.
    app.services.settings.update({ prepareAtPercent: 0 })
    let i = 0
    while (!events.some((e) => e.event === 'compression.done') && i < 40) {
      i++
      // The summarizer's calls (a long span is summarized in parts, each within the small model's
      // window) get real-looking summaries.
      fake.script(
        Array.from({ length: 12 }, () => ({
          for: 'summary' as const,
          reply: `## Context\nPlanning session ${i}.\n## Key Points\n- The codename is BLUE HERON.`
        }))
      )
      await turn(
        app,
        session.id,
        `Question ${i}: the codename is BLUE HERON; ` + 'please elaborate on the plan. '.repeat(8),
        LONG_REPLY(i)
      )
      await app.services.compression.backgroundSettled(session.id)
      fake.reset()
    }
    type Done = {
      snapshot: { id: string; content: Record<string, unknown>; cutoffSeq: number }
      report: {
        type: string
        messagesSummarized: number
        tokensAfter: number
        tokensBefore: number
        background?: string
        summarizer: string
      }
    }
    const [quick, replaced] = events.filter((e) => e.event === 'compression.done').map((e) => e.payload as Done)
    const done = replaced!
    // The send did not wait for the model: a quick offline summary went in first, then the model's replaced it.
    expect(quick!.report).toMatchObject({ type: 'auto', background: 'writing', summarizer: 'extractive' })
    expect(done.report).toMatchObject({
      type: 'auto',
      background: 'replaced',
      summarizer: 'tiny-4k',
      tokensBefore: quick!.report.tokensBefore
    })
    expect(done.snapshot.cutoffSeq).toBe(quick!.snapshot.cutoffSeq)
    expect(done.snapshot.content).toMatchObject({ restoresSnapshotId: null, baseSnapshotId: null })
    expect(done.report.type).toBe('auto')
    expect(done.report.tokensAfter).toBeLessThan(done.report.tokensBefore)
    // FR-4.2.1 content.
    expect(done.snapshot.content).toMatchObject({
      summaryText: expect.stringContaining('BLUE HERON'),
      messageRange: { firstMessageId: expect.any(String), lastMessageId: expect.any(String) },
      compressionTimestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      compressionType: 'auto',
      originalTokenCount: expect.any(Number),
      summaryTokenCount: expect.any(Number),
      messagesIncluded: done.report.messagesSummarized,
      strategy: 'rolling',
      summarizer: 'tiny-4k'
    })
    // The originals are all still stored (FR-1.4.6).
    const stored = app.services.chat.messages(session.id)
    expect(stored).toHaveLength(i * 2)
    // The next request carries the summary as a system message and only the recent messages.
    await turn(app, session.id, 'What is the codename?', 'BLUE HERON.')
    const body = lastChatRequest().body as { messages: Array<{ role: string; content: string }> }
    expect(body.messages[0]!.role).toBe('system')
    expect(body.messages[0]!.content).toMatch(/^Summary of the earlier conversation/)
    expect(body.messages.length).toBeLessThan(stored.length)
    // The question last, with what Recall brought back after its own text (what changes per turn at the end).
    const question = body.messages.at(-1)! as { role: string; content: string | Array<{ text: string }> }
    expect(question.role).toBe('user')
    expect(typeof question.content === 'string' ? question.content : question.content[0]!.text).toBe(
      'What is the codename?'
    )
    const usage = app.services.next.meter(session.id)
    expect(usage.tokens).toBeLessThanOrEqual(usage.budget.usable)
  })

  it('summarizes by hand with a focus, then undoes to the exact previous context', async () => {
    const { app, session } = open()
    for (let i = 1; i <= 3; i++) await turn(app, session.id, `Point ${i} about the API design`, `Reply ${i}`)
    const conv = () => app.services.usage.conversation(session.id)
    const before = buildModelRequest(conv())

    const preview = await app.services.compression.preview(session.id)
    expect(preview).toMatchObject({ totalMessages: 6, messagesToSummarize: 6, messagesKept: 0, summaryExists: false })
    expect(preview.estimatedTokensAfter).toBeLessThan(preview.tokensBefore + preview.targetSummaryTokens)

    fake.script([
      { reply: '## Context\nAPI design review.\n## Decisions and Outcomes\n- REST with cursor pagination.' }
    ])
    const { snapshot, report } = await app.services.compression.run(session.id, {
      focus: 'keep the API design decisions'
    })
    expect(report).toMatchObject({ type: 'manual', messagesSummarized: 6, summarizer: 'tiny-4k', fellBack: false })
    expect(report.summaryPreview).toBe(snapshot.content.summaryText.slice(0, 200))
    expect(snapshot.content.focus).toBe('keep the API design decisions')
    expect(JSON.stringify(summaryRequests()[0]!.body)).toContain('keep the API design decisions')
    expect(buildModelRequest(conv()).messages).toEqual([
      { role: 'system', content: expect.stringContaining('REST with cursor pagination') }
    ])

    expect(await app.services.compression.undo(session.id)).toEqual({ active: null })
    expect(buildModelRequest(conv())).toEqual(before)
  })

  it('cascades: the next summary is made from the previous one plus the newer messages', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'First topic: budgets', 'ok')
    fake.script([{ reply: 'FIRST SUMMARY: budgets were discussed.' }])
    const first = await app.services.compression.run(session.id)
    await turn(app, session.id, 'Second topic: hiring', 'ok')
    fake.script([{ reply: 'SECOND SUMMARY: budgets, then hiring.' }])
    const second = await app.services.compression.run(session.id)
    const prompt = JSON.stringify(summaryRequests()[1]!.body)
    expect(prompt).toContain('FIRST SUMMARY: budgets were discussed.')
    expect(prompt).toContain('Second topic: hiring')
    expect(prompt).not.toContain('First topic: budgets')
    expect(second.snapshot.content).toMatchObject({
      restoresSnapshotId: first.snapshot.id,
      baseSnapshotId: first.snapshot.id,
      messagesIncluded: 4
    })
    expect(second.snapshot.content.messageRange.firstMessageId).toBe(first.snapshot.content.messageRange.firstMessageId)
    const statuses = app.services.compression.snapshots(session.id).map((s) => [s.id, s.status])
    expect(statuses).toEqual(
      expect.arrayContaining([
        [first.snapshot.id, 'superseded'],
        [second.snapshot.id, 'active']
      ])
    )
    // Undo brings the first summary back.
    expect((await app.services.compression.undo(session.id)).active?.id).toBe(first.snapshot.id)
  })

  it('regenerates the same range, and undo returns to the version before', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'Facts: the port is 5433', 'noted')
    fake.script([{ reply: 'VERSION ONE' }])
    const one = await app.services.compression.run(session.id)
    fake.script([{ reply: 'VERSION TWO mentions port 5433' }])
    const two = await app.services.compression.regenerate(session.id)
    expect(two.snapshot.messageCutoffId).toBe(one.snapshot.messageCutoffId)
    expect(two.snapshot.content).toMatchObject({
      summaryText: 'VERSION TWO mentions port 5433',
      restoresSnapshotId: one.snapshot.id,
      messagesIncluded: 2
    })
    expect(JSON.stringify(summaryRequests()[1]!.body)).toContain('Facts: the port is 5433')
    // The model's text, then the facts it left out (the port) as Details.
    const restored = (await app.services.compression.undo(session.id)).active?.content.summaryText
    expect(restored).toMatch(/^VERSION ONE\n\nDetails:\n- User: Facts: the port is 5433/)
  })

  it('regenerates twice from the same base over the same messages, and undo steps back one version at a time', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'First topic: budgets', 'ok')
    fake.script([{ reply: 'BASE SUMMARY: budgets.' }])
    const base = await app.services.compression.run(session.id)
    await turn(app, session.id, 'Second topic: the port is 5433', 'noted')
    fake.script([{ reply: 'CASCADE ONE' }])
    const one = await app.services.compression.run(session.id)
    fake.script([{ reply: 'CASCADE TWO' }])
    const two = await app.services.compression.regenerate(session.id)
    fake.script([{ reply: 'CASCADE THREE' }])
    const three = await app.services.compression.regenerate(session.id)

    // Each regenerate is asked with the base summary and the messages after it, not the version it replaces.
    for (const request of summaryRequests().slice(2)) {
      const prompt = JSON.stringify(request.body)
      expect(prompt).toContain('BASE SUMMARY: budgets.')
      expect(prompt).toContain('Second topic: the port is 5433')
      expect(prompt).not.toContain('CASCADE')
      expect(prompt).not.toContain('First topic: budgets')
    }
    for (const version of [two, three]) {
      expect(version.report.messagesSummarized).toBe(2)
      expect(version.snapshot.messageCutoffId).toBe(one.snapshot.messageCutoffId)
      expect(version.snapshot.content).toMatchObject({
        baseSnapshotId: base.snapshot.id,
        messagesIncluded: 4,
        messageRange: one.snapshot.content.messageRange
      })
    }
    expect(three.snapshot.content.restoresSnapshotId).toBe(two.snapshot.id)

    // The model's text, without the Details list of facts it left out.
    const undo = async () =>
      (await app.services.compression.undo(session.id)).active?.content.summaryText?.split('\n\nDetails:')[0]
    expect(await undo()).toBe('CASCADE TWO')
    expect(await undo()).toBe('CASCADE ONE')
    expect(await undo()).toBe('BASE SUMMARY: budgets.')
    expect(await undo()).toBeUndefined()
  })

  it('reads summaries stored with one previous id for both undo and cascade', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'First topic: budgets', 'ok')
    fake.script([{ reply: 'OLD BASE' }])
    const base = await app.services.compression.run(session.id)
    await turn(app, session.id, 'Second topic: hiring', 'ok')
    fake.script([{ reply: 'OLD CASCADE' }])
    const cascade = await app.services.compression.run(session.id)
    fake.script([{ reply: 'OLD REGENERATED' }])
    const regenerated = await app.services.compression.regenerate(session.id)
    // Rewrite the three rows the way earlier versions stored them.
    const legacy = {
      [base.snapshot.id]: null,
      [cascade.snapshot.id]: base.snapshot.id,
      [regenerated.snapshot.id]: cascade.snapshot.id
    }
    for (const [id, previous] of Object.entries(legacy)) {
      app.database.sqlite
        .prepare(
          "UPDATE session_snapshots SET content_json = json_set(json_remove(content_json, '$.restoresSnapshotId', '$.baseSnapshotId'), '$.previousSnapshotId', json(?)) WHERE id = ?"
        )
        .run(JSON.stringify(previous), id)
    }
    fake.script([{ reply: 'NEW REGENERATED' }])
    const again = await app.services.compression.regenerate(session.id)
    const prompt = JSON.stringify(summaryRequests().at(-1)!.body)
    expect(prompt).toContain('OLD BASE')
    expect(prompt).toContain('Second topic: hiring')
    expect(prompt).not.toContain('OLD CASCADE')
    expect(again.snapshot.content).toMatchObject({
      baseSnapshotId: base.snapshot.id,
      restoresSnapshotId: regenerated.snapshot.id
    })
    const undo = async () => (await app.services.compression.undo(session.id)).active?.content.summaryText
    expect(await undo()).toBe('OLD REGENERATED')
    expect(await undo()).toBe('OLD CASCADE')
    expect(await undo()).toBe('OLD BASE')
  })

  it('never writes a summary that says nothing (only a cut marker)', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'hello', 'hi')
    fake.script([{ for: 'summary', reply: '\n[...175...]\n' }])
    await expect(app.services.compression.run(session.id)).rejects.toMatchObject({
      message: expect.stringMatching(/^The summary came out empty/)
    })
    expect(app.services.compression.snapshots(session.id)).toEqual([])
  })

  it('reports a failed manual summary and writes nothing (FR-5.1.2)', async () => {
    const { app, events, session } = open()
    await turn(app, session.id, 'hello', 'hi')
    fake.script([0, 1, 2].map(() => ({ fault: 'http500' as const })))
    await expect(app.services.compression.run(session.id)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/server error \(500\).*Retry/)
    })
    expect(app.services.compression.snapshots(session.id)).toEqual([])
    expect(events.find((e) => e.event === 'compression.failed')?.payload).toMatchObject({
      type: 'manual',
      code: 'unavailable'
    })
  })

  it('cancels a running summary without writing one', async () => {
    const { app, events, session } = open()
    await turn(app, session.id, 'slow please', 'ok')
    fake.script([{ chunks: Array.from({ length: 50 }, (_, i) => `s${i} `), delayMs: 40 }])
    const running = app.services.compression.run(session.id)
    await new Promise((r) => setTimeout(r, 200))
    expect(app.services.compression.active(session.id).running).toBe(true)
    expect(app.services.compression.cancel(session.id)).toEqual({ cancelled: true })
    await expect(running).rejects.toMatchObject({ code: 'cancelled' })
    expect(app.services.compression.snapshots(session.id)).toEqual([])
    expect(events.some((e) => e.event === 'compression.progress')).toBe(true)
    expect(events.find((e) => e.event === 'compression.failed')?.payload).toMatchObject({ code: 'cancelled' })
  })

  it('makes a message sent during a compression wait for it, then uses the summary', async () => {
    const { app, session } = open()
    await turn(app, session.id, 'before', 'ok')
    fake.script([{ chunks: ['SUMMARY ', 'WRITTEN ', 'SLOWLY'], delayMs: 80 }, { reply: 'answer after summary' }])
    const compressing = app.services.compression.run(session.id)
    await new Promise((r) => setTimeout(r, 30))
    const { message } = await app.services.chat.send(session.id, 'sent while summarizing')
    expect(message.status).toBe('complete') // stored at once
    await compressing
    await app.services.chat.idle()
    const body = lastChatRequest().body as { messages: Array<{ role: string; content: string }> }
    expect(body.messages).toEqual([
      { role: 'system', content: expect.stringContaining('SUMMARY WRITTEN SLOWLY') },
      { role: 'user', content: 'sent while summarizing' }
    ])
  })

  it('refuses to summarize when there is nothing new', async () => {
    const { app, session } = open()
    await expect(app.services.compression.run(session.id)).rejects.toMatchObject({
      code: 'nothing_to_do',
      message: 'There is nothing new to summarize yet.'
    })
    await expect(app.services.compression.undo(session.id)).rejects.toMatchObject({ code: 'nothing_to_do' })
    // Through the router, the renderer gets the same code to branch on.
    expect(await app.router.call('compression.regenerate', { sessionId: session.id })).toMatchObject({
      ok: false,
      error: { code: 'nothing_to_do' }
    })
  })
})
