import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { textOf } from '../../../../e2e/fake-provider/reply'
import { messageText } from '../../../shared/domain/chat-message'
import { pinsNote } from '../../../shared/domain/pins'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

const MODEL = { provider: 'openai-compatible', id: 'local-4k', contextWindow: 4096, maxOutput: 512 } as const
const words = (n: number, salt: number) =>
  Array.from({ length: n }, (_, i) => ['cedar', 'harbor', 'violet', 'quartz', 'ember'][(i + salt) % 5]).join(' ') +
  ` (${salt})`

describe('pinned messages', () => {
  const open = useTestApps()

  function chat() {
    const app = open({
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'k' }
    })
    app.services.settings.update({ customModels: [MODEL], summarizer: 'extractive' })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'openai-compatible', modelId: MODEL.id })
    return { app, id }
  }

  it('sends a pinned message word for word in every request, past several compressions, counted as its own part', async () => {
    fake.reset()
    const { app, id } = chat()
    const pinnedText = 'The deploy password rotates every Tuesday at 09:00 UTC; never before.'
    app.services.chat.send(id, pinnedText)
    await app.services.chat.idle()
    const first = app.services.chat.messages(id)[0]!
    app.services.pins.pin(id, first.id, true)
    for (let i = 0; i < 24; i++) {
      app.services.chat.send(id, words(220, i))
      await app.services.chat.idle()
      const sent = (fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> }).messages
      expect(sent.map((m) => textOf(m.content)).join('\n'), `request ${i + 2}`).toContain(pinnedText)
    }
    const summaries = app.services.compression.snapshots(id).filter((s) => s.kind === 'summary')
    expect(summaries.length).toBeGreaterThanOrEqual(2)
    expect(app.services.compression.active(id).summary!.cutoffSeq).toBeGreaterThan(first.seq)

    // The meter, the trigger and the request agree on one total, the pins a row of their own.
    const usage = app.services.next.meter(id)
    const next = app.services.next.built(id)
    expect(usage.breakdown.pinned).toBe(next.request.context.breakdown.pinned)
    expect(usage.pins).toMatchObject({ count: 1, limit: 25 })
    const parts = Object.values(usage.breakdown).reduce((a, b) => a + (b ?? 0), 0)
    expect(next.conversation.cost(parts)).toBe(usage.tokens)

    // Unpinned, it is the summary's again.
    app.services.pins.pin(id, first.id, false)
    expect(app.services.next.meter(id).breakdown.pinned).toBeUndefined()
  }, 120_000)

  it('refuses a pin that takes the pins past their share of the budget, with the numbers', async () => {
    fake.reset()
    const { app, id } = chat()
    app.services.chat.send(id, words(600, 1))
    await app.services.chat.idle()
    const big = app.services.chat.messages(id)[0]!
    expect(() => app.services.pins.pin(id, big.id, true)).toThrow(
      /^Pinned messages would take \d+% of this chat's context; the limit is 25%\. Unpin one or raise the limit in Settings\.$/
    )
    expect(app.services.chat.messages(id)[0]!.pinnedAt).toBeUndefined()
    app.services.settings.update({ pinShareLimit: 60 })
    expect(app.services.pins.pin(id, big.id, true).message.pinnedAt).toBeTypeOf('number')
  })

  it('keeps sending pins a smaller window puts over the limit, and says so', async () => {
    fake.reset()
    const { app, id } = chat()
    app.services.settings.update({ customModels: [MODEL, { ...MODEL, id: 'local-2k', contextWindow: 2048 }] })
    app.services.chat.send(id, words(150, 2))
    await app.services.chat.idle()
    const pinned = app.services.chat.messages(id)[0]!
    app.services.pins.pin(id, pinned.id, true)
    expect(app.services.next.meter(id).pins!.percent).toBeLessThanOrEqual(25)
    app.services.sessions.update(id, { modelId: 'local-2k', contextWindow: 1024 })
    const pins = app.services.next.meter(id).pins!
    expect(pins.percent).toBeGreaterThan(pins.limit)
    expect(pinsNote(pins)).toMatch(/over the 25% limit .* They are still sent in every request/)
    app.services.chat.send(id, 'And now?')
    await app.services.chat.idle()
    const sent = (fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> }).messages
    expect(sent.map((m) => textOf(m.content)).join('\n')).toContain(messageText(pinned.parts))
  })

  it('says when pins are more than a shrunk window can carry, by how much, and the request cuts them by about that', async () => {
    fake.reset()
    const { app, id } = chat()
    app.services.settings.update({
      customModels: [MODEL, { ...MODEL, id: 'local-tiny', contextWindow: 2048, maxOutput: 256 }],
      pinShareLimit: 60
    })
    app.services.chat.send(id, words(900, 3))
    await app.services.chat.idle()
    const pinned = app.services.chat.messages(id)[0]!
    app.services.pins.pin(id, pinned.id, true)
    expect(app.services.next.meter(id).pins!.cutTokens).toBeUndefined()
    // A window smaller than the pin: every request must cut it, and the meter, inspector and chat say so.
    app.services.sessions.update(id, { modelId: 'local-tiny', contextWindow: 600 })
    const pins = app.services.next.meter(id).pins!
    expect(pins.cutTokens).toBeGreaterThan(100)
    expect(pinsNote(pins)).toMatch(
      /^Pinned messages take \d+% of this chat's context, more than this model's window can carry: about [\d,]+ tokens from their middle are left out of every request\./
    )
    app.services.chat.send(id, 'And now?')
    await app.services.chat.idle()
    const sent = (fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> }).messages
    const text = sent.map((m) => textOf(m.content)).join('\n')
    expect(text).not.toContain(messageText(pinned.parts))
    // What went is the pin's start and end: about cutTokens fewer tokens (four characters a token here).
    const pinChars = messageText(pinned.parts).length
    const sentPinChars = text.length - 'And now?'.length
    expect(Math.abs(pinChars - sentPinChars - pins.cutTokens! * 4)).toBeLessThan(pins.cutTokens! * 4 * 0.5)
  })

  it('with auto-compression off, a pinned message among the oldest that no longer fit is still sent', async () => {
    fake.reset()
    const { app, id } = chat()
    app.services.sessions.update(id, { autoCompress: false })
    const pinnedText = 'Pinned fact: the staging database is called tern-7.'
    app.services.chat.send(id, pinnedText)
    await app.services.chat.idle()
    app.services.pins.pin(id, app.services.chat.messages(id)[0]!.id, true)
    for (let i = 0; i < 12; i++) {
      app.services.chat.send(id, words(220, i))
      await app.services.chat.idle()
    }
    const reply = app.services.chat.messages(id).at(-1)!
    expect(reply.sentWithoutMessages).toBeGreaterThan(0)
    const sent = (fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }).messages
    const block = sent.find((m) => m.role === 'system' && textOf(m.content).includes(pinnedText))
    expect(block, 'the pinned message went in the pinned block').toBeDefined()
    // Its reply was left out with the oldest; the pin is not counted among them.
    const unsummarized = app.services.chat.messages(id).length - 1
    const inPlace = sent.filter((m) => m.role !== 'system').length
    expect(reply.sentWithoutMessages).toBe(unsummarized - inPlace - 1)
  })

  it('travels with an export and comes back pinned on import', async () => {
    fake.reset()
    const { app, id } = chat()
    await app.services.chat.append(id, { role: 'user', parts: [{ type: 'text', text: 'Remember BLUE HERON.' }] })
    await app.services.chat.append(id, { role: 'assistant', parts: [{ type: 'text', text: 'Noted.' }] })
    app.services.pins.pin(id, app.services.chat.messages(id)[0]!.id, true)
    const exported = await app.router.call('sessions.export', { id, format: 'json' })
    if (!exported.ok) throw new Error(exported.error.message)
    const text = (exported.data as { text: string }).text
    app.services.sessions.remove(id)
    const imported = await app.router.call('sessions.import', { text })
    if (!imported.ok) throw new Error(imported.error.message)
    const copy = app.services.chat.messages((imported.data as { id: string }).id)
    expect(copy.map((m) => m.pinnedAt !== undefined)).toEqual([true, false])
    const listed = await app.router.call('chat.pins', { sessionId: (imported.data as { id: string }).id })
    expect(listed).toMatchObject({ ok: true, data: { messages: [{ id: copy[0]!.id }] } })
  })
})
