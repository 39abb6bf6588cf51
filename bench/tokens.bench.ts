// Token accounting benchmarks (NFR-7.1: counting a 1,000-message conversation in well under 500 ms).
// `npx vitest bench --run bench/tokens.bench.ts`. Vitest prints each group's relative speeds; the
// table after the run repeats the ratios against the naive baseline measured in the same run.
import { get_encoding } from 'tiktoken'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import type { MessagePart } from '../src/shared/domain/chat-message'
import { resolveModel } from '../src/main/models/catalog'
import { freeEncoders } from '../src/main/tokens/encoders'
import { countMessage, requestOverhead } from '../src/main/tokens/message-tokens'
import { countWireMessage, REPLY_PRIMING_TOKENS } from '../src/main/tokens/openai-count'
import { toChatWireMessages, type CountableMessage } from '../src/main/tokens/render'
import { createTokenCounter } from '../src/main/tokens/token-counter'

const spec = resolveModel('openai', 'gpt-4o')!

// Deterministic "realistic" chat: short questions, long markdown answers with code, some tool calls.
const WORDS = 'the a of to and in that is for it with as was on be by this are from or have an they which you one had not but what all were when we there can been has more if will would their so about into some could them other than then its only also new these two may first any like use should how each most where state function value return error model token context message user data'.split(' ')
function rng(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32)
}
function conversation(n: number, seed = 42): CountableMessage[] {
  const r = rng(seed)
  const sentence = () => {
    const words = Array.from({ length: 6 + Math.floor(r() * 14) }, () => WORDS[Math.floor(r() * WORDS.length)]!)
    return `${words.join(' ')}.`
  }
  const para = (k: number) => Array.from({ length: k }, sentence).join(' ')
  const code = () => `\`\`\`ts\nexport function f${Math.floor(r() * 1e6)}(x: number): number {\n  return x * ${Math.floor(r() * 100)} + ${para(1).length}\n}\n\`\`\``
  return Array.from({ length: n }, (_, i): CountableMessage => {
    if (i % 2 === 0) return { role: 'user', parts: [{ type: 'text', text: para(1 + Math.floor(r() * 5)) }] }
    if (i % 20 === 19) {
      const parts: MessagePart[] = [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'search_docs', input: { query: sentence(), limit: 5 } }]
      return { role: 'assistant', parts }
    }
    const text = `${para(3 + Math.floor(r() * 8))}\n\n- ${sentence()}\n- ${sentence()}\n- ${sentence()}\n\n${r() < 0.4 ? code() : para(3)}`
    return { role: 'assistant', parts: [{ type: 'text', text }] }
  })
}

const conv1k = conversation(1_000)
const session10k = conversation(10_000, 7)
const stored10k = session10k.map((m) => countMessage(m, spec).tokens) // what chat_messages.token_count holds
const warm = createTokenCounter()

/**
 * The baseline a careful engineer writes without Distill's caches: the cookbook's
 * num_tokens_from_messages with one encoder shared by every call (built once, outside the timing),
 * re-encoding every message each time.
 */
const sharedEncoder = get_encoding('o200k_base')
function naiveCount(messages: readonly CountableMessage[]): number {
  const count = (t: string) => sharedEncoder.encode_ordinary(t).length
  return messages.flatMap(toChatWireMessages).reduce((s, m) => s + countWireMessage(m, count), REPLY_PRIMING_TOKENS)
}

const timings = new Map<string, number[]>()
function timed<T>(label: string, fn: () => T): T {
  const t0 = performance.now()
  const out = fn()
  const list = timings.get(label) ?? []
  list.push(performance.now() - t0)
  timings.set(label, list)
  return out
}
async function timedAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now()
  const out = await fn()
  const list = timings.get(label) ?? []
  list.push(performance.now() - t0)
  timings.set(label, list)
  return out
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

let firstCountMs = 0
let tokens1k = 0
beforeAll(async () => {
  freeEncoders() // measure the very first count after launch, encoder load included
  const t0 = performance.now()
  tokens1k = (await createTokenCounter().countRequest(conv1k, spec)).tokens
  firstCountMs = performance.now() - t0
  await warm.countRequest(conv1k, spec)
})

const slow = { time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 }

describe('count a 1,000-message conversation (gpt-4o, o200k_base)', () => {
  bench('naive: shared encoder, re-encode all', () => void timed('1k naive', () => naiveCount(conv1k)), slow)
  bench('cold: fresh message cache, shared encoder', async () => {
    await timedAsync('1k cold', () => createTokenCounter().countRequest(conv1k, spec))
  }, slow)
  bench('cached: every message already counted', async () => {
    await timedAsync('1k cached', () => warm.countRequest(conv1k, spec))
  }, { time: 500 })
})

describe('context total of a 10,000-message session', () => {
  bench('naive: re-tokenize the whole history', () => void timed('10k naive', () => naiveCount(session10k)), { ...slow, iterations: 3 })
  bench('stored counts: sum token_count + overhead', () => {
    void timed('10k stored', () => stored10k.reduce((s, n) => s + n, requestOverhead(spec)))
  }, { time: 300 })
})

afterAll(() => {
  sharedEncoder.free()
  const m = (k: string) => median(timings.get(k) ?? [])
  const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(1)} ms`)
  const rows = [
    ['1,000 msgs, naive (baseline)', m('1k naive'), m('1k naive')],
    ['1,000 msgs, cold cache', m('1k cold'), m('1k naive')],
    ['1,000 msgs, cached', m('1k cached'), m('1k naive')],
    ['10,000 msgs, naive recount (baseline)', m('10k naive'), m('10k naive')],
    ['10,000 msgs, sum of stored counts', m('10k stored'), m('10k naive')]
  ] as const
  const lines = rows.map(([label, ms, base]) => `  ${label.padEnd(40)} ${fmt(ms).padStart(10)}   ${Math.round(base / ms).toLocaleString('en').padStart(9)}x vs naive`)
  const verdict = firstCountMs < 500 ? 'within' : 'OVER'
  console.log(
    [
      '',
      `Token accounting (median per run; ${tokens1k.toLocaleString('en')} tokens in the 1,000-message conversation)`,
      ...lines,
      `  first count after launch (encoder load + 1,000 msgs): ${fmt(firstCountMs)}: ${verdict} the NFR-7.1 budget of 500 ms`,
      ''
    ].join('\n')
  )
  freeEncoders()
})
