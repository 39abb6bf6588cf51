import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import { textOf } from '../../../../e2e/fake-provider/reply'
import { messageText, type ChatMessage } from '../../../shared/domain/chat-message'
import type { App } from '../../app'
import { PINNED_PREFIX } from '../../engine/pinned'
import { summarySettled } from '../chat/summary-settled'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'

let fake: FakeProvider
useFakeProvider((f) => (fake = f))

/** Local models of one server with three windows: a chat moves between them mid-way. */
const MODELS = [
  { provider: 'openai-compatible', id: 'local-8k', contextWindow: 8192, maxOutput: 1024 },
  { provider: 'openai-compatible', id: 'local-4k', contextWindow: 4096, maxOutput: 512 },
  { provider: 'openai-compatible', id: 'local-2k', contextWindow: 2048, maxOutput: 256 }
] as const

const WORDS =
  'river stone amber lantern harbor copper violet meadow cedar falcon quartz ember willow summit tidal orchard'.split(
    ' '
  )
/** About `tokens` tokens of plain prose, different every time `salt` differs. */
const prose = (tokens: number, salt: number) =>
  Array.from({ length: Math.max(1, tokens) }, (_, i) => WORDS[(i * 7 + salt) % WORDS.length]).join(' ') + ` (${salt})`

type Op =
  | { kind: 'send'; tokens: number }
  | { kind: 'tool'; tokens: number }
  | { kind: 'edit'; tokens: number }
  | { kind: 'model'; index: number }
  | { kind: 'window'; window: number | null }
  | { kind: 'threshold'; percent: number | null }
  | { kind: 'auto'; on: boolean }
  | { kind: 'recall'; on: boolean }
  | { kind: 'pin'; pick: number; pinned: boolean }

/** Message sizes from a few tokens to several times the smallest window. */
const arbTokens = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 3, max: 400 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1500, max: 7000 }) }
)
const arbOp: fc.Arbitrary<Op> = fc.oneof(
  { weight: 10, arbitrary: arbTokens.map((tokens) => ({ kind: 'send' as const, tokens })) },
  { weight: 2, arbitrary: arbTokens.map((tokens) => ({ kind: 'tool' as const, tokens })) },
  { weight: 1, arbitrary: arbTokens.map((tokens) => ({ kind: 'edit' as const, tokens })) },
  {
    weight: 2,
    arbitrary: fc.integer({ min: 0, max: MODELS.length - 1 }).map((index) => ({ kind: 'model' as const, index }))
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 3000, 6000).map((window) => ({ kind: 'window' as const, window })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, 60, 80, 99).map((percent) => ({ kind: 'threshold' as const, percent }))
  },
  { weight: 1, arbitrary: fc.boolean().map((on) => ({ kind: 'auto' as const, on })) },
  { weight: 1, arbitrary: fc.boolean().map((on) => ({ kind: 'recall' as const, on })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat(), fc.boolean(), fc.boolean())
      .map(([pick, pinned, again]) => ({ kind: 'pin' as const, pick, pinned: pinned || again }))
  }
)

const CUT_MARKER = /\[\.\.\.[\d,]+\.\.\.\]/

/** A message's own text as sent: the recalled passages ride as the pending message's last part. */
function ownText(content: unknown): string {
  if (!Array.isArray(content)) return textOf(content)
  return textOf(content.filter((p) => !textOf(p).startsWith('Recalled')))
}

type WireMessage = { role: string; content: unknown }

/** What one request said, for the next one to repeat (the cache-prefix property). */
interface SentRequest {
  seq: number
  messages: WireMessage[]
  system: string
  /** Something was cut or left out: the engine trimmed to fit, so the next request may differ. */
  trimmed: boolean
}

/**
 * The stable part of a request (everything before the pending message) opens the next request word
 * for word, and the pending message's own text follows it, unless a compression (another summary
 * or pinned block), an edit, a model, window, threshold, pin or auto-compression change, a refusal,
 * or a cut or left-out message came between: a provider's prompt cache serves that prefix.
 */
function checkPrefix(previous: SentRequest | undefined, current: SentRequest, changed: boolean) {
  if (!previous || changed || previous.trimmed || current.trimmed) return
  if (previous.system !== current.system) return
  if (fake.requests.some((r) => r.seq > previous.seq && r.seq < current.seq && r.outcome !== 'ok')) return
  const stable = previous.messages.slice(0, -1)
  expect(current.messages.slice(0, stable.length), 'the next request repeats the stable part').toEqual(stable)
  const pending = previous.messages.at(-1)!
  expect(ownText(current.messages[stable.length]?.content), 'then the message that was pending').toBe(
    ownText(pending.content)
  )
}

/**
 * The cutoff of the summary the request carried: a summary may be written right after a send
 * (the request went out with the one before), so the chat's active summary can be newer.
 */
function requestCutoff(app: App, sessionId: string, systemTexts: string[]): number {
  const carried = app.services.compression
    .snapshots(sessionId)
    .filter((s) => s.kind === 'summary' && systemTexts.some((t) => t.includes(s.content.summaryText)))
  return Math.max(0, ...carried.map((s) => s.cutoffSeq ?? 0))
}

/**
 * The loss invariant (DESIGN §12), checked on what the provider received for the reply just
 * written: every message of the chat's active version after the cutoff of the summary it carried is in the
 * request, in order (whole, or cut in the middle with the marker), unless the reply says how many
 * of the oldest were left out, which happens only with auto-compression off; and then the request
 * starts with a user turn.
 */
function checkRequest(app: App, sessionId: string, auto: boolean) {
  const path = app.services.chat.messages(sessionId)
  const reply = path.at(-1)!
  const request = fake.requests.at(-1)!
  const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages ?? []
  const sent = messages.filter((m) => m.role !== 'system')
  const cutoff = requestCutoff(
    app,
    sessionId,
    messages.filter((m) => m.role === 'system').map((m) => textOf(m.content))
  )
  // Pinned messages among the oldest that did not fit went in the pinned block, word for word, or cut in
  // the middle with the marker when even the block could not fit whole (checkPins allows the same).
  const block = messages.map((m) => textOf(m.content)).find((t) => t.startsWith(PINNED_PREFIX)) ?? ''
  const inBlock = (m: ChatMessage) => {
    if (m.pinnedAt === undefined) return false
    const text = messageText(m.parts)
    if (block.includes(`--- ${m.role} ---\n${text}`)) return true
    const head = `--- ${m.role} ---\n${text.slice(0, 40)}`
    return CUT_MARKER.test(block) && block.includes(head) && block.includes(text.slice(-40))
  }
  const expected = path.filter((m) => m.seq > cutoff && m.seq < reply.seq && !inBlock(m))
  const leftOut = reply.sentWithoutMessages ?? 0
  if (auto) expect(leftOut, 'nothing is left out while auto-compression is on').toBe(0)
  expect(sent.length, 'every unsummarized message is sent').toBe(expected.length - leftOut)
  const carried = expected.slice(leftOut)
  if (leftOut > 0) expect(carried[0]?.role, 'no orphaned reply opens the request').toBe('user')
  carried.forEach((m: ChatMessage, i) => {
    const text = messageText(m.parts)
    if (!text || m.role === 'tool' || m.parts.some((p) => p.type === 'tool-call')) return
    const got = ownText(sent[i]!.content)
    if (got !== text) expect(got, `message ${m.seq} is whole or cut with the marker`).toMatch(CUT_MARKER)
  })
}

/**
 * Every pinned message of the path is in the request word for word (in the pinned block after the
 * summary, or in place), whatever was summarized or left out. Only a request that could not fit at
 * all may cut it (with the marker).
 */
function checkPins(app: App, sessionId: string) {
  const path = app.services.chat.messages(sessionId)
  const reply = path.at(-1)!
  const messages = (fake.requests.at(-1)!.body as { messages: Array<{ content: unknown }> }).messages ?? []
  const carried = messages.map((m) => textOf(m.content)).join('\n')
  for (const m of path) {
    if (m.pinnedAt === undefined || m.seq >= reply.seq) continue
    const text = messageText(m.parts)
    if (!carried.includes(text)) expect(carried, `pinned message ${m.seq} is sent verbatim`).toMatch(CUT_MARKER)
  }
}

describe('no message leaves a request unless a summary holds it', () => {
  const open = useTestApps()

  it('holds for random chats, windows, thresholds, model switches and calibration in both directions', async () => {
    let salt = 0
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.constantFrom('', 'You are terse.', prose(900, 1)),
        fc.boolean(),
        fc.array(arbOp, { minLength: 6, maxLength: 18 }),
        async (factor, systemPrompt, autoAtStart, ops) => {
          salt = 0 // a replayed counterexample sends the same texts
          fake.reset()
          fake.setUsageFactor(factor)
          // The server refuses what passes the window, as real ones do, and Distill must recover; it
          // runs the window the chat is set to (a window set larger than the server's own is a
          // misconfiguration the refusal's words then name).
          let model: (typeof MODELS)[number] = MODELS[0]
          let windowSet: number | null = null
          const serverWindow = () => fake.setContextWindow(windowSet ?? model.contextWindow)
          serverWindow()
          const app = open({
            env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'k' }
          })
          app.services.settings.update({
            customModels: [...MODELS],
            summarizer: 'extractive',
            autoCompress: autoAtStart
          })
          const { id } = app.services.sessions.create()
          app.services.sessions.update(id, {
            provider: 'openai-compatible',
            modelId: MODELS[0].id,
            systemPrompt: systemPrompt || null
          })
          let auto = autoAtStart
          let previous: SentRequest | undefined
          let changed = false
          const afterReply = async () => {
            await app.services.chat.idle()
            const reply = app.services.chat.messages(id).at(-1)!
            expect(reply.status, reply.error?.message).toBe('complete')
            checkRequest(app, id, auto)
            checkPins(app, id)
            const request = fake.requests.at(-1)!
            const messages = (request.body as { messages?: WireMessage[] }).messages ?? []
            const current: SentRequest = {
              seq: request.seq,
              messages,
              system: JSON.stringify(messages.filter((m) => m.role === 'system')),
              trimmed: (reply.sentWithoutMessages ?? 0) > 0 || CUT_MARKER.test(JSON.stringify(messages))
            }
            checkPrefix(previous, current, changed)
            previous = current
            changed = false
          }
          const send = async (tokens: number) => {
            // What the budget promised before the send: the provider's own count must stay within it.
            const before = app.services.next.meter(id).budget
            app.services.chat.send(id, prose(tokens, ++salt))
            await afterReply()
            if (before.calibration) {
              expect(
                fake.requests.at(-1)!.inputTokens!,
                'the provider counts no more than window − reserved output'
              ).toBeLessThanOrEqual(before.window - before.reservedOutput)
            }
            // The meter and `distill context` report one total for the same state.
            expect(app.services.next.built(id).usage.tokens).toBe(app.services.next.meter(id).tokens)
          }
          for (const op of ops) {
            // Anything but a send or a tool exchange may change what the next request starts with.
            if (op.kind !== 'send' && op.kind !== 'tool') changed = true
            if (op.kind === 'send') await send(op.tokens)
            else if (op.kind === 'tool') {
              const callId = `call-${++salt}`
              await app.services.chat.append(id, {
                role: 'assistant',
                parts: [{ type: 'tool-call', toolCallId: callId, toolName: 'lookup', input: { q: 'x' } }]
              })
              await app.services.chat.append(id, {
                role: 'tool',
                parts: [{ type: 'tool-result', toolCallId: callId, toolName: 'lookup', output: prose(op.tokens, salt) }]
              })
              await send(20)
            } else if (op.kind === 'edit') {
              await summarySettled(app.services, id) // as the edit route does
              const last = app.services.chat.messages(id).findLast((m) => m.role === 'user')
              const cutoff = app.services.compression.active(id).summary?.cutoffSeq ?? 0
              if (!last || last.seq <= cutoff) continue
              app.services.chat.edit(id, last.id, prose(op.tokens, ++salt))
              await afterReply()
            } else if (op.kind === 'model') {
              model = MODELS[op.index]!
              app.services.sessions.update(id, { modelId: model.id })
              serverWindow()
            } else if (op.kind === 'window') {
              windowSet = op.window
              app.services.sessions.update(id, { contextWindow: op.window })
              serverWindow()
            } else if (op.kind === 'threshold') app.services.sessions.update(id, { thresholdPercent: op.percent })
            else if (op.kind === 'auto') {
              auto = op.on
              app.services.sessions.update(id, { autoCompress: op.on })
            } else if (op.kind === 'pin') {
              const candidates = app.services.chat
                .messages(id)
                .filter((m) => (m.role === 'user' || m.role === 'assistant') && messageText(m.parts))
              const target = candidates[op.pick % Math.max(1, candidates.length)]
              if (!target) continue
              try {
                app.services.pins.pin(id, target.id, op.pinned)
              } catch (err) {
                // Past the share of the budget pins may take: refused with the numbers, nothing written.
                expect((err as Error).message).toMatch(/^Pinned messages would take \d+% .* the limit is 25%/)
                expect(app.services.chat.messages(id).find((m) => m.id === target.id)?.pinnedAt).toBeUndefined()
              }
            } else app.services.sessions.update(id, { recall: op.on })
          }
        }
      ),
      {
        numRuns: Number(process.env.INVARIANT_RUNS ?? 12),
        // Found by earlier runs: a pin cut inside a pinned block that could not fit whole; a server
        // counting a long paste 1.6× the estimate after one short reply taught it 0.79×.
        examples: [
          [
            0.9928500986193294,
            prose(900, 1),
            false,
            [
              { kind: 'send', tokens: 295 },
              { kind: 'pin', pick: 0, pinned: true },
              { kind: 'send', tokens: 1500 },
              { kind: 'window', window: null },
              { kind: 'window', window: 3000 },
              { kind: 'send', tokens: 314 },
              { kind: 'edit', tokens: 1500 }
            ]
          ],
          [
            0.945712401055409,
            '',
            false,
            [
              { kind: 'send', tokens: 5 },
              { kind: 'send', tokens: 4471 },
              { kind: 'send', tokens: 3 },
              { kind: 'send', tokens: 3 },
              { kind: 'send', tokens: 3 },
              { kind: 'window', window: null }
            ]
          ]
        ]
      }
    )
  }, 240_000)

  it('shows what a send that compresses first would carry, without writing the summary', async () => {
    const app = open({
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'k' }
    })
    app.services.settings.update({ customModels: [...MODELS], summarizer: 'extractive' })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'openai-compatible', modelId: 'local-2k' })
    // Stored as an import stores them: no send, so nothing compressed them yet.
    for (let i = 0; i < 16; i++)
      await app.services.chat.append(id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: prose(150, i) }]
      })
    const question = 'Which harbor did we talk about first?'
    const before = app.services.next.built(id, question)
    expect(before.usage.compressionDue).toBe(true)
    expect(before.request.leftOut).toBeDefined() // built as things stand, it could not carry them all

    const next = await app.services.compression.nextSummary(id, question)
    expect(next).toBeDefined()
    const after = app.services.next.built(id, question, next)
    expect(after.request.leftOut).toBeUndefined()
    expect(after.request.context.messages.some((m) => m.kind === 'summary')).toBe(true)
    expect(after.conversation.cost(after.request.context.tokens)).toBeLessThanOrEqual(after.conversation.budget.usable)
    // Every message after the summary's cutoff is in the request.
    const kept = after.request.context.messages.filter((m) => m.kind === 'message').map((m) => m.sourceId)
    const expected = app.services.chat
      .messages(id)
      .filter((m) => m.seq > next!.cutoffSeq)
      .map((m) => m.id)
    expect(kept).toEqual(expected)
    expect(app.services.compression.active(id).summary).toBeNull() // nothing was written
  })
})
