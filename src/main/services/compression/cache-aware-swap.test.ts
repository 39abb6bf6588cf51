import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { EventEnvelope } from '../../../shared/contract'
import { LONG_REPLY } from '../../../../test/support/compression-stack'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const until = async (check: () => boolean) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
  expect(check()).toBe(true)
}

/** A summary written ahead goes in when the chat's prompt cache has gone cold anyway. */
describe('compression timed to the prompt cache', () => {
  const openApp = useTestApps()

  function open(provider: 'openai' | 'openai-compatible') {
    let now = Date.UTC(2026, 10, 1, 9)
    const app = openApp({
      clock: { now: () => now },
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseURLs.openai,
        OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible,
        OPENAI_COMPATIBLE_API_KEY: 'k'
      }
    })
    const events: EventEnvelope[] = []
    app.events.subscribe((e) => events.push(e))
    app.services.settings.update({
      customModels: [
        { provider, id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 },
        { provider, id: 'wide-32k', contextWindow: 32_768, maxOutput: 4096 }
      ],
      summarizationModel: 'wide-32k',
      prepareAtPercent: 60,
      minimumTokens: 500
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider, modelId: 'tiny-4k' })
    const turn = async (i: number) => {
      fake.script([{ reply: LONG_REPLY(i) }])
      app.services.chat.send(session.id, `Question ${i}: ` + 'please elaborate on the plan. '.repeat(8))
      await app.services.chat.idle()
      now += 30_000
    }
    return { app, events, session, turn, idle: (ms: number) => (now += ms) }
  }

  async function preparedBelowThreshold(opened: ReturnType<typeof open>) {
    const { app, events, session, turn } = opened
    const prepared = () => app.services.next.meter(session.id).preparedSummary
    fake.script([{ for: 'summary', reply: '## Context\nPREPARED SUMMARY of the plan.' }])
    let i = 0
    while (!prepared() && i < 40) await turn(++i)
    await until(() => prepared()?.state === 'ready')
    expect(events.some((e) => e.event === 'compression.done')).toBe(false)
    expect(app.services.next.meter(session.id).compressionDue).toBe(false)
    return i
  }

  it('swaps it in after a pause longer than the cache lives, not while the cache is warm', async () => {
    const opened = open('openai')
    const { app, events, session, turn, idle } = opened
    const i = await preparedBelowThreshold(opened)
    // A warm cache: the next turn goes out with the summary it had.
    await turn(i + 1)
    expect(events.some((e) => e.event === 'compression.done')).toBe(false)
    // Ten minutes away: the provider dropped the cache, the next request is cold whatever it holds.
    idle(10 * 60_000)
    await turn(i + 2)
    const done = events.find((e) => e.event === 'compression.done')
    expect(done).toBeDefined()
    expect(app.services.compression.active(session.id).summary?.content.summaryText).toContain('PREPARED SUMMARY')
    const last = [...fake.requests].reverse().find((r) => !JSON.stringify(r.body).includes('summarization assistant'))
    expect(JSON.stringify(last!.body)).toContain('PREPARED SUMMARY')
  })

  it('waits for the threshold on a local server, whose cache outlives any pause', async () => {
    const opened = open('openai-compatible')
    const { events, turn, idle } = opened
    const i = await preparedBelowThreshold(opened)
    idle(60 * 60_000)
    await turn(i + 1)
    expect(events.some((e) => e.event === 'compression.done')).toBe(false)
  })
})
