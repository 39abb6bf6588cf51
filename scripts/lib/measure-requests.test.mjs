import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  addMeasurements,
  canonicalMessages,
  catalogInputPrices,
  IN_CHAT_SUMMARY_START,
  idealCachedTokens,
  measureRequests,
  requestTokens,
  sharedPrefixTokens
} from './measure-requests.mjs'

const text = (n, ch = 'a') => ch.repeat(n)
const openai = (seq, messages, extra = {}) => ({
  seq,
  provider: 'openai-chat',
  method: 'POST',
  outcome: 'ok',
  body: { model: 'fake-model', messages },
  ...extra
})

describe('canonicalMessages', () => {
  it('puts an Anthropic top-level system prompt first and flattens parts, ignoring cache_control', () => {
    const body = {
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b', cache_control: {} }
          ]
        },
        { role: 'assistant', content: 'c' }
      ]
    }
    assert.deepEqual(canonicalMessages(body), [
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'a\nb' },
      { role: 'assistant', text: 'c' }
    ])
  })

  it('reads OpenAI messages as they are', () => {
    assert.deepEqual(canonicalMessages({ messages: [{ role: 'system', content: 'x' }] }), [
      { role: 'system', text: 'x' }
    ])
  })
})

describe('token measures', () => {
  it('counts a request like the fake provider: 3 + Σ (ceil(chars/4) + 3)', () => {
    assert.equal(requestTokens([{ role: 'user', text: text(5) }]), 3 + 2 + 3)
  })

  it('shares whole messages, then floor(chars/4) of a partly shared one', () => {
    const prev = [
      { role: 'system', text: text(8) },
      { role: 'user', text: text(10, 'b') + 'xyz' }
    ]
    const next = [
      { role: 'system', text: text(8) },
      { role: 'user', text: text(10, 'b') + 'QQQ' },
      { role: 'assistant', text: 'zz' }
    ]
    assert.equal(sharedPrefixTokens(prev, next), 3 + (2 + 3) + 2)
    assert.equal(sharedPrefixTokens(undefined, next), 0)
    assert.equal(sharedPrefixTokens([{ role: 'user', text: 'q' }], [{ role: 'system', text: 'q' }]), 0)
  })

  it('makes the ideal everything before the last two messages', () => {
    const m = [
      { role: 'user', text: text(4) },
      { role: 'assistant', text: text(4) },
      { role: 'user', text: text(4) }
    ]
    assert.equal(idealCachedTokens(m), 3 + 4)
    assert.equal(idealCachedTokens(m.slice(0, 2)), 0)
  })
})

describe('measureRequests', () => {
  const first = [{ role: 'user', content: text(40) }]
  const second = [...first, { role: 'assistant', content: text(40) }, { role: 'user', content: text(40) }]
  const summary = [
    { role: 'system', content: 'You are a conversation summarization assistant. Do it.' },
    { role: 'user', content: text(400) }
  ]

  it('bills the prefix repeat at 0.1× when the fake reports no cache, and summaries whole', () => {
    const recorded = [
      { seq: 1, provider: 'openai-models', method: 'GET', outcome: 'ok', body: {} },
      openai(2, first, { inputTokens: 16 }),
      openai(3, summary, { inputTokens: 126 }),
      openai(4, second, { inputTokens: 42 })
    ]
    const m = measureRequests(recorded, { turns: 2 })
    assert.equal(m.requests, 3)
    assert.equal(m.replyRequests, 2)
    assert.equal(m.summaryRequests, 1)
    assert.equal(m.inputTokens, 16 + 126 + 42)
    // The second reply repeats the whole first request (16 tokens); its ideal is the same.
    assert.equal(m.prefixTokens, 16)
    assert.equal(m.idealCachedTokens, 16)
    assert.equal(m.cacheReadTokens, null)
    assert.ok(Math.abs(m.billed - (16 + 126 + 26 + 1.6)) < 1e-9)
    assert.ok(Math.abs(m.idealBilled - (16 + 26 + 1.6)) < 1e-9)
    assert.equal(m.summariesPer100Turns, 50)
  })

  it("takes the fake's cache report when there is one, and bills writes at 1.25× in its own column", () => {
    const recorded = [
      openai(1, first, { inputTokens: 16, cache: { read: 0, write: 16, breakpoints: 1 } }),
      openai(2, second, { inputTokens: 42, cache: { read: 10, write: 26, breakpoints: 1 } })
    ]
    const m = measureRequests(recorded, { turns: 2 })
    assert.equal(m.cacheReadTokens, 10)
    assert.equal(m.cacheWriteTokens, 42)
    assert.ok(Math.abs(m.billed - (16 + 32 + 1)) < 1e-9)
    assert.ok(Math.abs(m.billedWithWrites - (m.billed + 0.25 * 42)) < 1e-9)
    assert.ok(Math.abs(m.cacheShare - 10 / 58) < 1e-9)
    const sum = addMeasurements([m, m])
    assert.equal(sum.requests, 4)
    assert.equal(sum.cacheReadTokens, 20)
    assert.ok(Math.abs(sum.billedOverIdeal - m.billedOverIdeal) < 1e-9)
  })

  it('bills a summary asked inside the chat by its cache report, and prices a cheaper summarization model as such', () => {
    const inChat = [
      ...second,
      { role: 'assistant', content: text(40) },
      { role: 'user', content: `${IN_CHAT_SUMMARY_START} Summarize.` }
    ]
    const recorded = [
      openai(1, first, { inputTokens: 16 }),
      openai(2, second, { inputTokens: 42 }),
      openai(3, inChat, { inputTokens: 80, cache: { read: 60, write: 0, breakpoints: 0 } }),
      { ...openai(4, summary, { inputTokens: 126 }), body: { model: 'cheap-model', messages: summary } }
    ]
    const prices = catalogInputPrices({
      models: [
        { id: 'fake-model', pricePerMTokInput: 3 },
        { id: 'cheap-model', pricePerMTokInput: 1 }
      ]
    })
    const m = measureRequests(recorded, { turns: 2, inputPrice: prices })
    assert.equal(m.summaryRequests, 2)
    // Replies: 16 + (26 + 1.6); the in-chat summary: 20 + 6; the own one: 126 whole, a third in price.
    const replies = 16 + 26 + 1.6
    assert.ok(Math.abs(m.billed - (replies + 26 + 126)) < 1e-9)
    assert.ok(Math.abs(m.pricedBilled - (replies + 26 + 42)) < 1e-9)
    assert.ok(Math.abs(m.pricedOverIdeal - m.pricedBilled / m.idealBilled) < 1e-9)
    // Without prices every request weighs the same.
    assert.ok(Math.abs(measureRequests(recorded).pricedBilled - m.billed) < 1e-9)
  })
})
