import type { FakeProvider } from '../../e2e/fake-provider'
import type { EventEnvelope } from '../../src/shared/contract'
import type { App } from '../../src/main/app'
import { useTestApps } from './test-apps'
import { IN_CHAT_SUMMARY_START } from '../../src/main/engine/prompts'

/** A reply long enough that a few turns fill a 4,096-token window. */
export const LONG_REPLY = (i: number) =>
  `Answer ${i}: ` +
  'This is a fairly detailed answer that goes on for a while to fill the context window quickly. '.repeat(6)

// A summary request of its own, or one asked inside the chat's request (its last message says so).
const isSummaryRequest = (r: { body: unknown }) => {
  const body = JSON.stringify(r.body)
  return (
    body.includes('conversation summarization assistant') ||
    body.includes(JSON.stringify(IN_CHAT_SUMMARY_START).slice(1, -1))
  )
}

/**
 * Apps on the real stack whose chat model is a small-window model of the fake provider, with
 * quick retries: for tests of compressions, model summaries and summaries written ahead.
 */
export function useCompressionStack(fake: () => FakeProvider) {
  const openApp = useTestApps()

  function open() {
    const app = openApp({
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 1000 },
      backgroundRetryMs: [10, 10],
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake().baseURLs.openai }
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

  /** A chat whose summaries a roomy model writes ahead, from 60% of the threshold. */
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

  async function turn(app: App, sessionId: string, text: string, reply: string) {
    fake().script([{ reply }])
    app.services.chat.send(sessionId, text)
    await app.services.chat.idle()
  }

  return {
    open,
    openPreparing,
    turn,
    /** The newest request that asked for a reply (not a summary). */
    lastChatRequest: () => [...fake().requests].reverse().find((r) => !isSummaryRequest(r))!,
    summaryRequests: () => fake().requests.filter(isSummaryRequest)
  }
}
