import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { insertImportedMessages } from '../../db/repositories/imports-repo'
import { countMessage } from '../../tokens/message-tokens'
import { useFakeProvider } from '../../../../test/support/test-apps'
import { useCompressionStack } from '../../../../test/support/compression-stack'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const START = Date.UTC(2024, 2, 1)

/** A chat imported with `n` messages (counted as the chat's model counts them): never compressed. */
function imported(app: App, sessionId: string, n: number) {
  const spec = app.services.models.spec('openai', 'tiny-4k')
  app.database.db.transaction((tx) =>
    insertImportedMessages(
      tx,
      sessionId,
      (function* () {
        for (let i = 0; i < n; i++) {
          const role = i % 2 ? ('assistant' as const) : ('user' as const)
          const parts = [
            {
              type: 'text' as const,
              text:
                i === 10
                  ? 'The storage unit code is 4417, written on the green card.'
                  : `Message ${i}: the crate in bay ${i} holds ${i * 3} lanterns for the harbour festival.`
            }
          ]
          const counted = countMessage({ role, parts }, spec)
          yield {
            id: `${sessionId}-${i}`,
            role,
            parts,
            createdAt: START + i * 60_000,
            tokenCount: counted.tokens,
            tokenCounter: counted.counter
          }
        }
      })()
    )
  )
}

describe('an imported chat far past its window (a backlog)', () => {
  const { open, turn, lastChatRequest, summaryRequests } = useCompressionStack(() => fake)

  it('sends at once with a quick summary of the newest part that announces the rest, then summarizes it all in the background', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    imported(app, session.id, 3_000)
    await turn(app, session.id, 'What is the storage unit code?', 'It is 4417.')
    const quick = app.services.compression.active(session.id).summary!
    // Covered up to the retained messages: nothing is left out of the request or lost.
    expect(quick.content.backlog).toBeDefined()
    const backlog = quick.content.backlog!
    expect(backlog.firstSeq).toBe(1)
    expect(quick.content.messagesIncluded).toBeGreaterThan(backlog.messages)
    const first = new Date(START).toISOString().slice(0, 10)
    expect(quick.content.summaryText).toMatch(
      new RegExp(`^\\[Older history: ${backlog.messages.toLocaleString('en-US')} earlier messages are from ${first}`)
    )
    // The request that went out carries the announcement, so the model knows the rest exists.
    const sent = JSON.stringify(lastChatRequest().body)
    expect(sent).toContain('earlier messages are from')
    // Then the whole history's summary replaces it, with the same coverage and no announcement.
    await app.services.compression.backgroundSettled(session.id)
    const whole = app.services.compression.active(session.id).summary!
    expect(whole.id).not.toBe(quick.id)
    expect(whole.content.backlog).toBeUndefined()
    expect(whole.messageCutoffId).toBe(quick.messageCutoffId)
    expect(whole.content.messagesIncluded).toBe(quick.content.messagesIncluded)
    expect(whole.content.summaryText).not.toContain('Older history')
    // Undo goes back to what was before the quick one (nothing): the backlog summary is not a step of its own.
    expect(whole.content.restoresSnapshotId).toBeNull()
    expect(app.services.chat.messages(session.id).length).toBe(3_002)
  }, 60_000)

  it('with model summaries, asks the model for none of it: the whole history is summarized offline', async () => {
    const { app, session } = open()
    imported(app, session.id, 3_000)
    await turn(app, session.id, 'What is the storage unit code?', 'It is 4417.')
    expect(app.services.compression.active(session.id).summary!.content.backlog).toBeDefined()
    await app.services.compression.backgroundSettled(session.id)
    const whole = app.services.compression.active(session.id).summary!
    expect(whole.content.backlog).toBeUndefined()
    expect(whole.content.summarizer).toBe('extractive')
    expect(summaryRequests()).toHaveLength(0)
  }, 60_000)

  it('keeps the older messages pending through a compression that comes before their summary, then summarizes them all', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    imported(app, session.id, 3_000)
    await turn(app, session.id, 'What is the storage unit code?', 'It is 4417.')
    const quick = app.services.compression.active(session.id).summary!
    // The user presses Summarize before the background summary has started.
    await app.services.compression.run(session.id, { retentionOverride: 200 })
    const next = app.services.compression.active(session.id).summary!
    expect(next.id).not.toBe(quick.id)
    expect(next.content.backlog).toEqual(quick.content.backlog)
    await app.services.compression.backgroundSettled(session.id)
    const whole = app.services.compression.active(session.id).summary!
    expect(whole.content.backlog).toBeUndefined()
    expect(whole.messageCutoffId).toBe(next.messageCutoffId)
    expect(whole.content.messagesIncluded).toBe(next.content.messagesIncluded)
    // Read from the first message on: the code in message 10 is in the whole history's summary.
    expect(whole.content.summaryText).toContain('4417')
  }, 60_000)

  it('writes the older messages’ summary at the next send when the app closed before it', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    imported(app, session.id, 3_000)
    await turn(app, session.id, 'What is the storage unit code?', 'It is 4417.')
    // Closed before it started: dropped as closing drops it.
    app.services.compression.cancel(session.id)
    await app.services.compression.backgroundSettled(session.id)
    expect(app.services.compression.active(session.id).summary!.content.backlog).toBeDefined()
    await turn(app, session.id, 'Thanks.', 'You are welcome.')
    await app.services.compression.backgroundSettled(session.id)
    expect(app.services.compression.active(session.id).summary!.content.backlog).toBeUndefined()
  }, 60_000)

  it('shows the same quick summary in `distill context` (marked as a backlog) without storing it', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    imported(app, session.id, 3_000)
    const next = await app.services.compression.nextSummary(session.id, 'And the code?')
    expect(next?.content.backlog?.messages).toBeGreaterThan(2_000)
    expect(next?.content.summaryText).toContain('Older history')
    expect(app.services.compression.active(session.id).summary).toBeNull()
  })

  it('leaves a chat that only just passed its window to the usual summary', async () => {
    const { app, session } = open()
    app.services.settings.update({ summarizer: 'extractive' })
    imported(app, session.id, 300)
    await turn(app, session.id, 'And the code?', 'It is 4417.')
    await app.services.compression.idle(session.id)
    const summary = app.services.compression.active(session.id).summary!
    expect(summary.content.backlog).toBeUndefined()
    expect(summary.content.summaryText).not.toContain('Older history')
  })
})
