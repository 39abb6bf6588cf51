import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../e2e/fake-provider'
import type { EventEnvelope } from '../../shared/contract'
import type { App } from '../app'
import { useFakeProvider, useTestApps } from '../../../test/support/test-apps'
import { updateMessage } from '../db/repositories/messages-repo'
import { buildModelRequest } from './request-builder'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const LONG_REPLY = (i: number) =>
  `Answer ${i}: ` + 'This is a fairly detailed answer that goes on for a while to fill the context window quickly. '.repeat(6)

describe('compression against the real stack', () => {
  const openApp = useTestApps()

  function open() {
    const app = openApp({
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 1000 },
      backgroundRetryMs: [10, 10],
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai }
    })
    const events: EventEnvelope[] = []
    app.events.subscribe((e) => events.push(e))
    // A small window so a few turns fill it: 4096 tokens, 512 reserved for the reply.
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }],
      minimumTokens: 500
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'tiny-4k' })
    return { app, events, session }
  }

  async function turn(app: App, sessionId: string, text: string, reply: string) {
    fake.script([{ reply }])
    app.services.chat.send(sessionId, text)
    await app.services.chat.idle()
  }

  const lastChatRequest = () =>
    [...fake.requests].reverse().find((r) => !JSON.stringify(r.body).includes('conversation summarization assistant'))!
  const summaryRequests = () => fake.requests.filter((r) => JSON.stringify(r.body).includes('conversation summarization assistant'))

  it('compresses automatically before the request that would pass the threshold', async () => {
    const { app, events, session } = open()
    let i = 0
    while (!events.some((e) => e.event === 'compression.done') && i < 40) {
      i++
      // The summarizer's calls (a long span is summarized in parts, each within the small model's
      // window) get real-looking summaries.
      fake.script(Array.from({ length: 12 }, () => ({ for: 'summary' as const, reply: `## Context\nPlanning session ${i}.\n## Key Points\n- The codename is BLUE HERON.` })))
      await turn(app, session.id, `Question ${i}: the codename is BLUE HERON; ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      await app.services.compression.backgroundSettled(session.id)
      fake.reset()
    }
    type Done = { snapshot: { id: string; content: Record<string, unknown>; cutoffSeq: number }; report: { type: string; messagesSummarized: number; tokensAfter: number; tokensBefore: number; background?: string; summarizer: string } }
    const [quick, replaced] = events.filter((e) => e.event === 'compression.done').map((e) => e.payload as Done)
    const done = replaced!
    // The send did not wait for the model: a quick offline summary went in first, then the model's replaced it.
    expect(quick!.report).toMatchObject({ type: 'auto', background: 'writing', summarizer: 'extractive' })
    expect(done.report).toMatchObject({ type: 'auto', background: 'replaced', summarizer: 'tiny-4k', tokensBefore: quick!.report.tokensBefore })
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
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'What is the codename?' })
    const usage = app.services.usage.context(session.id)
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

    fake.script([{ reply: '## Context\nAPI design review.\n## Decisions and Outcomes\n- REST with cursor pagination.' }])
    const { snapshot, report } = await app.services.compression.run(session.id, { focus: 'keep the API design decisions' })
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
    expect(second.snapshot.content).toMatchObject({ restoresSnapshotId: first.snapshot.id, baseSnapshotId: first.snapshot.id, messagesIncluded: 4 })
    expect(second.snapshot.content.messageRange.firstMessageId).toBe(first.snapshot.content.messageRange.firstMessageId)
    const statuses = app.services.compression.snapshots(session.id).map((s) => [s.id, s.status])
    expect(statuses).toEqual(expect.arrayContaining([[first.snapshot.id, 'superseded'], [second.snapshot.id, 'active']]))
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
    expect(two.snapshot.content).toMatchObject({ summaryText: 'VERSION TWO mentions port 5433', restoresSnapshotId: one.snapshot.id, messagesIncluded: 2 })
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
      expect(version.snapshot.content).toMatchObject({ baseSnapshotId: base.snapshot.id, messagesIncluded: 4, messageRange: one.snapshot.content.messageRange })
    }
    expect(three.snapshot.content.restoresSnapshotId).toBe(two.snapshot.id)

    // The model's text, without the Details list of facts it left out.
    const undo = async () => (await app.services.compression.undo(session.id)).active?.content.summaryText?.split('\n\nDetails:')[0]
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
    const legacy = { [base.snapshot.id]: null, [cascade.snapshot.id]: base.snapshot.id, [regenerated.snapshot.id]: cascade.snapshot.id }
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
    expect(again.snapshot.content).toMatchObject({ baseSnapshotId: base.snapshot.id, restoresSnapshotId: regenerated.snapshot.id })
    const undo = async () => (await app.services.compression.undo(session.id)).active?.content.summaryText
    expect(await undo()).toBe('OLD REGENERATED')
    expect(await undo()).toBe('OLD CASCADE')
    expect(await undo()).toBe('OLD BASE')
  })

  it('reports a failed manual summary and writes nothing (FR-5.1.2)', async () => {
    const { app, events, session } = open()
    await turn(app, session.id, 'hello', 'hi')
    fake.script([0, 1, 2].map(() => ({ fault: 'http500' as const })))
    await expect(app.services.compression.run(session.id)).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/server error \(500\).*Retry/) })
    expect(app.services.compression.snapshots(session.id)).toEqual([])
    expect(events.find((e) => e.event === 'compression.failed')?.payload).toMatchObject({ type: 'manual', code: 'unavailable' })
  })

  it('keeps the quick summary when the model fails during auto-compression, retrying with backoff (FR-5.1.1)', async () => {
    const { app, events, session } = open()
    // The first message carries the fake provider's fault phrase: every prompt that quotes it, as
    // the summarizer's does, is answered with a 500. Chat replies echo the last message only.
    for (let i = 1; events.every((e) => e.event !== 'compression.done') && i < 40; i++) {
      const phrase = i === 1 ? ' [fake:500]' : ''
      app.services.chat.send(session.id, `Turn ${i}: remember the number ${1000 + i}.${phrase} ` + 'More words here to use tokens. '.repeat(30))
      await app.services.chat.idle()
    }
    const done = events.find((e) => e.event === 'compression.done')!.payload as { snapshot: { id: string }; report: { fellBack: boolean; summarizer: string; background?: string } }
    expect(done.report).toMatchObject({ fellBack: false, summarizer: 'extractive', background: 'writing' })
    await app.services.compression.backgroundSettled(session.id)
    // Three tries (the first and two retries), each with the provider's own retries; the quick summary stays.
    expect(events.filter((e) => e.event === 'compression.failed')).toHaveLength(3)
    expect(summaryRequests().length).toBeGreaterThanOrEqual(3)
    expect(app.services.compression.active(session.id)).toMatchObject({ summary: { id: done.snapshot.id }, running: false })
  })

  it('falls back to the extractive summary while waiting for the model, as replay does (FR-5.1.1)', async () => {
    const { app, session } = open()
    app.services.settings.update({ autoCompress: false })
    for (let i = 1; i <= 16; i++) await turn(app, session.id, `Turn ${i}: the number ${1000 + i}. ` + 'More words here to use tokens. '.repeat(30), 'ok')
    fake.script([0, 1, 2].map(() => ({ for: 'summary' as const, fault: 'http500' as const })))
    app.services.settings.update({ autoCompress: true })
    const last = app.services.chat.messages(session.id).at(-1)!
    const run = await app.services.compression.beforeRequest(session.id, last.seq + 1, { waitForModel: true })
    expect(run?.report).toMatchObject({ fellBack: true, summarizer: 'extractive' })
    expect(run!.report.warnings.join(' ')).toMatch(/server error/)
  })

  it('never holds a send for a slow model summary, and swaps the model summary in when it arrives', async () => {
    const { app, events, session } = open()
    // A summarization model with room for the whole span: one request.
    app.services.settings.update({
      customModels: [
        { provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 },
        { provider: 'openai', id: 'wide-32k', contextWindow: 32_768, maxOutput: 4096 }
      ],
      summarizationModel: 'wide-32k'
    })
    for (let i = 1; i <= 40 && !events.some((e) => e.event === 'compression.started'); i++) {
      // Two seconds per summary request; the reply itself is immediate.
      fake.script(Array.from({ length: 4 }, () => ({ for: 'summary' as const, chunks: Array.from({ length: 10 }, (_, k) => `MODEL${k} `), delayMs: 200 })))
      const started = performance.now()
      await turn(app, session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      // The reply arrived long before one summary request could finish.
      expect(performance.now() - started).toBeLessThan(1500)
    }
    const quick = app.services.compression.active(session.id).summary!
    expect(quick.content.summarizer).toBe('extractive')
    expect(app.services.compression.active(session.id).running).toBe(true)
    await app.services.compression.backgroundSettled(session.id)
    const model = app.services.compression.active(session.id).summary!
    expect(model.content.summaryText).toContain('MODEL9')
    expect(model.cutoffSeq).toBe(quick.cutoffSeq)
    // The next request carries the model's summary; Undo goes back to before the quick one.
    await turn(app, session.id, 'And now?', 'Now this.')
    expect((lastChatRequest().body as { messages: Array<{ content: string }> }).messages[0]!.content).toContain('MODEL9')
    expect((await app.services.compression.undo(session.id)).active).toBeNull()
  })

  describe('summaries prepared ahead', () => {
    function openPreparing() {
      const opened = open()
      opened.app.services.settings.update({
        customModels: [
          { provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 },
          { provider: 'openai', id: 'wide-32k', contextWindow: 32_768, maxOutput: 4096 }
        ],
        summarizationModel: 'wide-32k',
        prepareAtPercent: 60
      })
      return opened
    }
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
      expect(check()).toBe(true)
    }

    it('writes the next summary ahead and swaps it in at the threshold without another model call', async () => {
      const { app, events, session } = openPreparing()
      const prepared = () => app.services.usage.context(session.id).preparedSummary
      fake.script([{ for: 'summary', reply: '## Context\nPREPARED SUMMARY of the plan.' }])
      let i = 0
      while (!prepared() && i < 40) await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      // Past the preparation point, below the threshold: written in the background, shown to the meter.
      expect(events.some((e) => e.event === 'compression.done')).toBe(false)
      await until(() => prepared()?.state === 'ready')
      const ready = prepared()!
      expect(ready).toMatchObject({ state: 'ready', tokens: expect.any(Number) })
      expect(ready.lastSeq).toBeGreaterThan(ready.firstSeq)
      const writtenAhead = summaryRequests().length
      expect(writtenAhead).toBe(1)
      while (!events.some((e) => e.event === 'compression.done') && i < 60) await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      const done = events.find((e) => e.event === 'compression.done')!.payload as { snapshot: { cutoffSeq: number; content: { summaryText: string } }; report: { background?: string; summarizer: string } }
      expect(done.report).toMatchObject({ background: 'prepared', summarizer: 'wide-32k' })
      expect(done.snapshot.content.summaryText).toContain('PREPARED SUMMARY')
      expect(done.snapshot.cutoffSeq).toBe(ready.lastSeq)
      expect(summaryRequests()).toHaveLength(writtenAhead)
      // The request after it carries the prepared summary and everything after its span.
      const body = lastChatRequest().body as { messages: Array<{ role: string; content: string }> }
      expect(body.messages[0]!.content).toContain('PREPARED SUMMARY')
      expect(app.services.usage.context(session.id).tokens).toBeLessThan(app.services.usage.context(session.id).budget.threshold)
    })

    it('with a paid summarization model, waits for the user to type the next message, and says what it cost', async () => {
      const { app, session } = openPreparing()
      app.services.settings.update({ summarizationModel: 'gpt-4o-mini' })
      const usage = () => app.services.usage.context(session.id)
      fake.script([{ for: 'summary', reply: 'PAID SUMMARY' }])
      for (let i = 1; usage().tokens < usage().budget.threshold * 0.62 && i < 40; i++) await turn(app, session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      expect(usage().preparedSummary).toBeNull()
      expect(summaryRequests()).toHaveLength(0)
      // The meter asks with a draft while the user types: now it is worth preparing.
      expect(app.services.usage.context(session.id, 'And the next step?').preparedSummary).toBeNull()
      await until(() => usage().preparedSummary?.state === 'ready')
      expect(usage().preparedSummary!.costUsd).toBeGreaterThan(0)
    })

    it('drops a prepared summary whose messages changed, and takes the quick path', async () => {
      const { app, events, session } = openPreparing()
      const prepared = () => app.services.usage.context(session.id).preparedSummary
      fake.script([{ for: 'summary', reply: 'STALE SUMMARY' }])
      let i = 0
      while (!prepared() && i < 40) await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      await until(() => prepared()?.state === 'ready')
      // An edit of a message inside the prepared span: the next reply's check drops it.
      const inSpan = app.services.chat.messages(session.id).find((m) => m.seq === prepared()!.firstSeq + 1)!
      updateMessage(app.database.db, inSpan.id, { tokenCount: inSpan.tokenCount! + 1 })
      // Not prepared again (that is what a later reply would do): only the stale one is dropped.
      app.services.settings.update({ prepareAtPercent: 0 })
      app.services.compression.prepareAhead(session.id)
      expect(prepared()).toBeNull()
      fake.script(Array.from({ length: 4 }, () => ({ for: 'summary' as const, reply: 'FRESH MODEL SUMMARY' })))
      while (!events.some((e) => e.event === 'compression.done') && i < 60) await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      await app.services.compression.backgroundSettled(session.id)
      const reports = events.filter((e) => e.event === 'compression.done').map((e) => (e.payload as { report: { background?: string } }).report.background)
      expect(reports[0]).not.toBe('prepared')
      expect(app.services.compression.active(session.id).summary!.content.summaryText).not.toContain('STALE SUMMARY')
    })
  })

  it('discards the model summary being written when the user cancels, keeping the quick one', async () => {
    const { app, events, session } = open()
    for (let i = 1; i <= 40 && !events.some((e) => e.event === 'compression.started'); i++) {
      fake.script([{ for: 'summary' as const, chunks: Array.from({ length: 50 }, (_, k) => `M${k} `), delayMs: 100 }])
      await turn(app, session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
    }
    const quick = app.services.compression.active(session.id).summary!
    expect(app.services.compression.cancel(session.id)).toEqual({ cancelled: true })
    await app.services.compression.backgroundSettled(session.id)
    expect(app.services.compression.active(session.id)).toMatchObject({ summary: { id: quick.id }, running: false })
    expect(events.filter((e) => e.event === 'compression.done')).toHaveLength(1)
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
    const { message } = app.services.chat.send(session.id, 'sent while summarizing')
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
    await expect(app.services.compression.run(session.id)).rejects.toMatchObject({ code: 'nothing_to_do', message: 'There is nothing new to summarize yet.' })
    await expect(app.services.compression.undo(session.id)).rejects.toMatchObject({ code: 'nothing_to_do' })
    // Through the router, the renderer gets the same code to branch on.
    expect(await app.router.call('compression.regenerate', { sessionId: session.id })).toMatchObject({ ok: false, error: { code: 'nothing_to_do' } })
  })
})
