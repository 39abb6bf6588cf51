import fc from 'fast-check'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { MessagePart } from '../../shared/domain/chat-message'
import { resolveModel, userModelSchema, type ModelSpec } from '../models/catalog'
import { countTextTokens, freeEncoders, getEncoder } from './encoders'
import { ESTIMATE_FACTORS } from './estimate'
import { countMessage, isExactCounter, requestOverhead } from './message-tokens'
import { countChatRequest } from './openai-count'
import { toChatWireMessages, type CountableMessage } from './render'

afterEach(() => vi.restoreAllMocks())
afterAll(() => freeEncoders())

const gpt4o = resolveModel('openai', 'gpt-4o')!
const gpt4 = resolveModel('openai', 'gpt-4')!
const sonnet = resolveModel('anthropic', 'claude-sonnet-4-5')!
const gemini = resolveModel('google', 'gemini-2.5-flash')!
const local = userModelSchema.parse({ id: 'qwen3', contextWindow: 32_768 })

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.lorem({ maxCount: 40 }))
const part: fc.Arbitrary<MessagePart> = fc.oneof(
  { weight: 4, arbitrary: text.map((t) => ({ type: 'text' as const, text: t })) },
  fc.record({
    type: fc.constant('tool-call' as const),
    toolCallId: fc.string(),
    toolName: fc.string({ minLength: 1 }),
    input: fc.jsonValue()
  }),
  fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: fc.string(),
    toolName: fc.string({ minLength: 1 }),
    output: fc.oneof(
      fc.jsonValue(),
      text.map((value) => ({ type: 'text', value }))
    )
  }),
  fc.record({
    type: fc.constant('attachment' as const),
    filename: fc.string(),
    mediaType: fc.constant('image/png'),
    size: fc.nat()
  })
)
const message: fc.Arbitrary<CountableMessage> = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
    parts: fc.array(part, { maxLength: 4 }),
    name: fc.string({ minLength: 1, maxLength: 12 })
  },
  { requiredKeys: ['role', 'parts'] }
)

const total = (msgs: readonly CountableMessage[], s: ModelSpec) =>
  msgs.reduce((sum, m) => sum + countMessage(m, s).tokens, requestOverhead(s))

describe('per-message counts', () => {
  it('sum of stored message counts + request overhead = the whole request counted at once (property)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (msgs) => {
        for (const s of [gpt4o, gpt4]) {
          const enc = s.tokenizer as 'o200k_base' | 'cl100k_base'
          expect(total(msgs, s)).toBe(countChatRequest(msgs.flatMap(toChatWireMessages), enc))
        }
      }),
      { numRuns: 100 }
    )
  })

  it('is additive over concatenation and never negative, for every counter (property)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.array(message, { maxLength: 6 }), (a, b) => {
        for (const s of [gpt4o, sonnet, gemini, local]) {
          for (const m of [...a, ...b]) expect(countMessage(m, s).tokens).toBeGreaterThanOrEqual(3)
          expect(total([...a, ...b], s)).toBe(total(a, s) + total(b, s) - requestOverhead(s))
        }
      }),
      { numRuns: 100 }
    )
  })

  it('names its counter and scales estimates by the family factor', () => {
    const m: CountableMessage = {
      role: 'user',
      parts: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog. '.repeat(50) }]
    }
    expect(countMessage(m, gpt4o).counter).toBe('tiktoken:o200k_base')
    expect(countMessage(m, gpt4).counter).toBe('tiktoken:cl100k_base')
    expect(countMessage(m, sonnet).counter).toBe('estimate:anthropic')
    expect(countMessage(m, gemini).counter).toBe('estimate:gemini')
    expect(countMessage(m, local).counter).toBe('estimate:generic')
    const cl100k = countMessage(m, gpt4).tokens
    expect(countMessage(m, sonnet).tokens).toBe(Math.ceil(cl100k * ESTIMATE_FACTORS.anthropic.factor))
    expect(isExactCounter('tiktoken:o200k_base')).toBe(true)
    expect(isExactCounter('estimate:anthropic')).toBe(false)
  })

  it('falls back to chars/4 when tiktoken fails (FR-5.2.1, FR-3.3.2)', () => {
    vi.spyOn(getEncoder('o200k_base'), 'count').mockImplementation(() => {
      throw new Error('wasm trap')
    })
    const m: CountableMessage = { role: 'user', parts: [{ type: 'text', text: 'x'.repeat(400) }] }
    const r = countMessage(m, gpt4o)
    expect(r).toMatchObject({ counter: 'chars/4', error: expect.stringContaining('wasm trap') })
    expect(r.tokens).toBe(3 + 1 + 100) // framing + ceil("user"/4) + 400/4
    vi.restoreAllMocks()
    expect(countMessage(m, gpt4o).counter).toBe('tiktoken:o200k_base')
    expect(countTextTokens('', 'o200k_base')).toBe(0)
  })
})
