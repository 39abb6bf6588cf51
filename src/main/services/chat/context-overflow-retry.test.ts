import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { messageText } from '../../../shared/domain/chat-message'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

const WORDS = 'river stone amber lantern harbor copper violet meadow cedar falcon quartz'.split(' ')
/** Words the local tokenizer counts one each but the server (chars / 4) counts ~1.7 each. */
const prose = (words: number) => Array.from({ length: words }, (_, i) => WORDS[(i * 7) % WORDS.length]).join(' ')

describe('a provider that counts a request past its window', () => {
  const open = useTestApps()

  /** A chat on a local server's model described in Settings with this window and reply reserve. */
  function localChat(modelId: string, contextWindow: number, maxOutput: number) {
    const app = open({
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'k' }
    })
    app.services.settings.update({
      customModels: [{ provider: 'openai-compatible', id: modelId, contextWindow, maxOutput }],
      summarizer: 'extractive'
    })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'openai-compatible', modelId })
    return { app, id }
  }

  it('refuses it once: Distill learns its count and sends the message again within the window', async () => {
    fake.setUsageFactor(1.2)
    fake.setContextWindow(8192)
    const { app, id } = localChat('local-8k', 8192, 1024)
    app.services.chat.send(id, 'Hello!')
    await app.services.chat.idle()
    const paste = prose(4_400) // ~4,400 local tokens, ~8,700 as the server counts them
    app.services.chat.send(id, paste)
    await app.services.chat.idle()

    const reply = app.services.chat.messages(id).at(-1)!
    expect(reply.status, reply.error?.message).toBe('complete')
    const [refused, accepted] = fake.requests.slice(-2)
    expect(refused!.outcome).toBe('error')
    expect(accepted!.outcome).toBe('ok')
    expect(accepted!.inputTokens! + 1024).toBeLessThanOrEqual(8192)
    // The stored message is whole; the request carried it cut in the middle, and the chat says so.
    const sent = app.services.chat.messages(id).at(-2)!
    expect(messageText(sent.parts)).toBe(paste)
    expect(sent.sentCutTokens).toBeGreaterThan(0)
    // The next request is built with the provider's count in mind from the start.
    const { budget } = app.services.next.meter(id)
    expect(budget.calibration!.factor).toBeGreaterThan(1.5)
  })

  it("learns a proxy's smaller window even for a model counted exactly, and sends the message again within it", async () => {
    fake.setContextWindow(300)
    const app = open({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'openai', modelId: 'gpt-4o' })
    app.services.chat.send(id, prose(600))
    await app.services.chat.idle()
    const reply = app.services.chat.messages(id).at(-1)!
    expect(reply.status, reply.error?.message).toBe('complete')
    expect(fake.requests.map((r) => r.outcome)).toEqual(['error', 'ok'])
    expect(app.services.sessions.get(id).contextWindow).toBe(300)
    // Exact counts: nothing to calibrate, only the window was wrong.
    expect(app.services.next.meter(id).budget.calibration).toBeNull()
  })

  it("learns a server's smaller window from its refusal, tells the user, and keeps the count honest", async () => {
    fake.setContextWindow(600)
    const { app, id } = localChat('local-4k', 4096, 512)
    const notices: string[] = []
    app.events.subscribe((e) => {
      if (e.event === 'chat.notice') notices.push((e.payload as { text: string }).text)
    })
    app.services.chat.send(id, prose(200))
    await app.services.chat.idle()

    const reply = app.services.chat.messages(id).at(-1)!
    expect(reply.status, reply.error?.message).toBe('complete')
    const [refused, accepted] = fake.requests.slice(-2)
    expect(refused!.outcome).toBe('error')
    expect(accepted!.outcome).toBe('ok')
    expect(app.services.sessions.get(id).contextWindow).toBe(600)
    expect(notices).toEqual([expect.stringMatching(/it takes 600 tokens, not 4,096 as set\. This chat now uses 600/)])
    // The calibration moved by the server's own count of the refused request, not by a guess from its window.
    const { budget } = app.services.next.meter(id)
    const sent = (refused!.body as { messages: unknown[] }).messages.length
    expect(sent).toBeGreaterThan(0)
    expect(budget.window).toBe(600)
    expect(budget.calibration?.factor ?? 1).toBeLessThan(2)
  })
})
