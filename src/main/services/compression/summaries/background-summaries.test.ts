import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../../e2e/fake-provider'
import { useFakeProvider } from '../../../../../test/support/test-apps'
import { LONG_REPLY, useCompressionStack } from '../../../../../test/support/compression-stack'
import { updateMessage } from '../../../db/repositories/messages/messages-repo'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

/** The model summary behind a quick one (written in the background) and summaries written ahead. */
describe('model summaries off the send path', () => {
  const { open, openPreparing, turn, lastChatRequest, summaryRequests } = useCompressionStack(() => fake)

  it('keeps the quick summary when the model fails during auto-compression, retrying with backoff (FR-5.1.1)', async () => {
    const { app, events, session } = open()
    // The first message carries the fake provider's fault phrase: every prompt that quotes it, as
    // the summarizer's does, is answered with a 500. Chat replies echo the last message only.
    for (let i = 1; events.every((e) => e.event !== 'compression.done') && i < 40; i++) {
      const phrase = i === 1 ? ' [fake:500]' : ''
      app.services.chat.send(
        session.id,
        `Turn ${i}: remember the number ${1000 + i}.${phrase} ` + 'More words here to use tokens. '.repeat(30)
      )
      await app.services.chat.idle()
    }
    const done = events.find((e) => e.event === 'compression.done')!.payload as {
      snapshot: { id: string }
      report: { fellBack: boolean; summarizer: string; background?: string }
    }
    expect(done.report).toMatchObject({ fellBack: false, summarizer: 'extractive', background: 'writing' })
    await app.services.compression.backgroundSettled(session.id)
    // Three tries (the first and two retries), each with the provider's own retries; the quick summary stays.
    expect(events.filter((e) => e.event === 'compression.failed')).toHaveLength(3)
    expect(summaryRequests().length).toBeGreaterThanOrEqual(3)
    expect(app.services.compression.active(session.id)).toMatchObject({
      summary: { id: done.snapshot.id },
      running: false
    })
  })

  it('falls back to the extractive summary while waiting for the model, as replay does (FR-5.1.1)', async () => {
    const { app, session } = open()
    app.services.settings.update({ autoCompress: false })
    for (let i = 1; i <= 16; i++)
      await turn(
        app,
        session.id,
        `Turn ${i}: the number ${1000 + i}. ` + 'More words here to use tokens. '.repeat(30),
        'ok'
      )
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
      fake.script(
        Array.from({ length: 4 }, () => ({
          for: 'summary' as const,
          chunks: Array.from({ length: 10 }, (_, k) => `MODEL${k} `),
          delayMs: 200
        }))
      )
      const started = performance.now()
      await turn(app, session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      // The reply arrived long before one summary request could finish.
      expect(performance.now() - started).toBeLessThan(1500)
    }
    // Past the threshold the send went out as it was; its quick summary lands right after.
    await app.services.compression.idle(session.id)
    const quick = app.services.compression.active(session.id).summary!
    expect(quick.content.summarizer).toBe('extractive')
    expect(app.services.compression.active(session.id).running).toBe(true)
    await app.services.compression.backgroundSettled(session.id)
    const model = app.services.compression.active(session.id).summary!
    expect(model.content.summaryText).toContain('MODEL9')
    expect(model.cutoffSeq).toBe(quick.cutoffSeq)
    // The next request carries the model's summary; Undo goes back to before the quick one.
    await turn(app, session.id, 'And now?', 'Now this.')
    expect((lastChatRequest().body as { messages: Array<{ content: string }> }).messages[0]!.content).toContain(
      'MODEL9'
    )
    expect((await app.services.compression.undo(session.id)).active).toBeNull()
  })

  describe('summaries prepared ahead', () => {
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
      expect(check()).toBe(true)
    }

    it('writes the next summary ahead and swaps it in at the threshold without another model call', async () => {
      const { app, events, session } = openPreparing()
      const prepared = () => app.services.next.meter(session.id).preparedSummary
      fake.script([{ for: 'summary', reply: '## Context\nPREPARED SUMMARY of the plan.' }])
      let i = 0
      while (!prepared() && i < 40)
        await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      // Past the preparation point, below the threshold: written in the background, shown to the meter.
      expect(events.some((e) => e.event === 'compression.done')).toBe(false)
      await until(() => prepared()?.state === 'ready')
      const ready = prepared()!
      expect(ready).toMatchObject({ state: 'ready', tokens: expect.any(Number) })
      expect(ready.lastSeq).toBeGreaterThan(ready.firstSeq)
      const writtenAhead = summaryRequests().length
      expect(writtenAhead).toBe(1)
      while (!events.some((e) => e.event === 'compression.done') && i < 60)
        await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      const done = events.find((e) => e.event === 'compression.done')!.payload as {
        snapshot: { cutoffSeq: number; content: { summaryText: string } }
        report: { background?: string; summarizer: string }
      }
      expect(done.report).toMatchObject({ background: 'prepared', summarizer: 'wide-32k' })
      expect(done.snapshot.content.summaryText).toContain('PREPARED SUMMARY')
      expect(done.snapshot.cutoffSeq).toBe(ready.lastSeq)
      expect(summaryRequests()).toHaveLength(writtenAhead)
      // It went in right after the reply that passed the threshold: the next request carries it and
      // everything after its span.
      await turn(app, session.id, `Question ${++i}: and then?`, LONG_REPLY(i))
      const body = lastChatRequest().body as { messages: Array<{ role: string; content: string }> }
      expect(body.messages[0]!.content).toContain('PREPARED SUMMARY')
      expect(app.services.next.meter(session.id).tokens).toBeLessThan(
        app.services.next.meter(session.id).budget.threshold
      )
    })

    it('with a paid summarization model, waits for the user to type the next message, and says what it cost', async () => {
      const { app, session } = openPreparing()
      app.services.settings.update({ summarizationModel: 'gpt-4o-mini' })
      const usage = () => app.services.next.meter(session.id)
      fake.script([{ for: 'summary', reply: 'PAID SUMMARY' }])
      for (let i = 1; usage().tokens < usage().budget.threshold * 0.62 && i < 40; i++)
        await turn(app, session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      expect(usage().preparedSummary).toBeNull()
      expect(summaryRequests()).toHaveLength(0)
      // The meter asks with a draft while the user types: now it is worth preparing.
      expect(app.services.next.meter(session.id, 'And the next step?').preparedSummary).toBeNull()
      await until(() => usage().preparedSummary?.state === 'ready')
      expect(usage().preparedSummary!.costUsd).toBeGreaterThan(0)
    })

    it('drops a prepared summary whose messages changed, and takes the quick path', async () => {
      const { app, events, session } = openPreparing()
      const prepared = () => app.services.next.meter(session.id).preparedSummary
      fake.script([{ for: 'summary', reply: 'STALE SUMMARY' }])
      let i = 0
      while (!prepared() && i < 40)
        await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      await until(() => prepared()?.state === 'ready')
      // An edit of a message inside the prepared span: the next reply's check drops it.
      const inSpan = app.services.chat.messages(session.id).find((m) => m.seq === prepared()!.firstSeq + 1)!
      updateMessage(app.database.db, inSpan.id, { tokenCount: inSpan.tokenCount! + 1 })
      // Not prepared again (that is what a later reply would do): only the stale one is dropped.
      app.services.settings.update({ prepareAtPercent: 0 })
      app.services.compression.prepareAhead(session.id)
      expect(prepared()).toBeNull()
      fake.script(Array.from({ length: 4 }, () => ({ for: 'summary' as const, reply: 'FRESH MODEL SUMMARY' })))
      while (!events.some((e) => e.event === 'compression.done') && i < 60)
        await turn(app, session.id, `Question ${++i}: ` + 'please elaborate on the plan. '.repeat(8), LONG_REPLY(i))
      await app.services.compression.backgroundSettled(session.id)
      const reports = events
        .filter((e) => e.event === 'compression.done')
        .map((e) => (e.payload as { report: { background?: string } }).report.background)
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
    await app.services.compression.idle(session.id)
    const quick = app.services.compression.active(session.id).summary!
    expect(app.services.compression.cancel(session.id)).toEqual({ cancelled: true })
    await app.services.compression.backgroundSettled(session.id)
    expect(app.services.compression.active(session.id)).toMatchObject({ summary: { id: quick.id }, running: false })
    expect(events.filter((e) => e.event === 'compression.done')).toHaveLength(1)
  })
})
