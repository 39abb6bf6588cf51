import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { messageText } from '../../../shared/domain/chat-message'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { withDraft } from './draft-conversation'
import { buildModelRequest } from './request-builder'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

/** A local model with a 4,096-token window, 512 of them reserved for the reply. */
const TINY = { provider: 'openai-compatible', id: 'tiny-local', contextWindow: 4096, maxOutput: 512 } as const

/** Text whose words the tokenizers cannot merge: about one token per word. */
const paste = (words: number) => Array.from({ length: words }, (_, i) => `w${i.toString(36)}`).join(' ')

describe('a message larger than the window', () => {
  const open = useTestApps()

  function tinyChat() {
    const app = open({
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'k' }
    })
    app.services.settings.update({ customModels: [TINY] })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai-compatible', modelId: TINY.id })
    return { app, session }
  }

  it('goes out cut in the middle with a marker, within window − reserved output, and is stored whole', async () => {
    const { app, session } = tinyChat()
    const text = `START ${paste(9000)} END`
    app.services.chat.send(session.id, text)
    await app.services.chat.idle()

    const [user, reply] = app.services.chat.messages(session.id)
    expect(messageText(user!.parts)).toBe(text) // the original, untouched
    expect(reply!.status).toBe('complete')

    const sent = JSON.stringify(fake.requests.at(-1)!.body)
    expect(sent).toMatch(/START/)
    expect(sent).toMatch(/END/)
    expect(sent).toMatch(/\[\.\.\.[\d,]+\.\.\.\]/)
    expect(fake.requests.at(-1)!.inputTokens!).toBeLessThanOrEqual(TINY.contextWindow - TINY.maxOutput)
  })

  it('keeps every request within the budget when earlier oversized messages are in the history', async () => {
    const { app, session } = tinyChat()
    app.services.settings.update({ autoCompress: false })
    for (let i = 0; i < 3; i++) {
      app.services.chat.send(session.id, `Part ${i}: ${paste(6000)}`)
      await app.services.chat.idle()
    }
    const conv = withDraft(app.services.usage.conversation(session.id), paste(20_000))
    const request = buildModelRequest(conv)
    // Counted tokens within the budget restated in them, and so the provider's tokens within U.
    expect(request.context.tokens).toBeLessThanOrEqual(conv.budget.countedUsable)
    expect(conv.cost(request.context.tokens)).toBeLessThanOrEqual(conv.budget.usable)
    for (const r of fake.requests.filter((q) => q.provider === 'openai-chat')) {
      expect(r.inputTokens!).toBeLessThanOrEqual(TINY.contextWindow - TINY.maxOutput)
    }
  })

  it('is announced before sending: the meter says how much will be cut', () => {
    const { app, session } = tinyChat()
    const usage = app.services.next.meter(session.id, paste(9000))
    expect(usage.draftCut).toBeGreaterThan(5000)
    expect(app.services.next.meter(session.id, 'a short question').draftCut).toBe(0)
  })
})
