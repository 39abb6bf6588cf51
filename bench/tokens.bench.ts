// Token accounting benchmarks (NFR-7.1: counting a 1,000-message conversation in well under 500 ms).
// `npx vitest bench --run bench/tokens.bench.ts`. Vitest prints each group's relative speeds; the
// table after the run repeats the ratios against the naive baseline measured in the same run, then
// compares the two tokenizer libraries (tiktoken's WASM, gpt-tokenizer) on real conversations.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import { get_encoding } from 'tiktoken'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import type { MessagePart } from '../src/shared/domain/chat-message'
import { resolveModel } from '../src/main/models/catalog'
import { countTextTokens, freeEncoders, type EncodingName } from '../src/main/tokens/encoders'
import { countMessage, requestOverhead } from '../src/main/tokens/message-tokens'
import { countWireMessage, REPLY_PRIMING_TOKENS } from '../src/main/tokens/openai-count'
import { toChatWireMessages, type CountableMessage } from '../src/main/tokens/render'
import { createTokenCounter } from '../src/main/tokens/token-counter'
import { isMeasuring, warmedUp } from './measured'

const spec = resolveModel('openai', 'gpt-4o')!

// Deterministic "realistic" chat: short questions, long markdown answers with code, some tool calls.
const WORDS =
  'the a of to and in that is for it with as was on be by this are from or have an they which you one had not but what all were when we there can been has more if will would their so about into some could them other than then its only also new these two may first any like use should how each most where state function value return error model token context message user data'.split(
    ' '
  )
function rng(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32
}
function conversation(n: number, seed = 42): CountableMessage[] {
  const r = rng(seed)
  const sentence = () => {
    const words = Array.from({ length: 6 + Math.floor(r() * 14) }, () => WORDS[Math.floor(r() * WORDS.length)]!)
    return `${words.join(' ')}.`
  }
  const para = (k: number) => Array.from({ length: k }, sentence).join(' ')
  const code = () =>
    `\`\`\`ts\nexport function f${Math.floor(r() * 1e6)}(x: number): number {\n  return x * ${Math.floor(r() * 100)} + ${para(1).length}\n}\n\`\`\``
  return Array.from({ length: n }, (_, i): CountableMessage => {
    if (i % 2 === 0) return { role: 'user', parts: [{ type: 'text', text: para(1 + Math.floor(r() * 5)) }] }
    if (i % 20 === 19) {
      const parts: MessagePart[] = [
        { type: 'tool-call', toolCallId: `c${i}`, toolName: 'search_docs', input: { query: sentence(), limit: 5 } }
      ]
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
 * num_tokens_from_messages with one encoder shared by every call (the same library Distill counts
 * with, loaded outside the timing), re-encoding every message each time.
 */
function naiveCount(messages: readonly CountableMessage[]): number {
  const count = (t: string) => countTextTokens(t, 'o200k_base')
  return messages.flatMap(toChatWireMessages).reduce((s, m) => s + countWireMessage(m, count), REPLY_PRIMING_TOKENS)
}

const timings = new Map<string, number[]>()
function timed<T>(label: string, fn: () => T): T {
  const t0 = performance.now()
  const out = fn()
  const list = timings.get(label) ?? []
  if (isMeasuring()) list.push(performance.now() - t0)
  timings.set(label, list)
  return out
}
async function timedAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now()
  const out = await fn()
  const list = timings.get(label) ?? []
  if (isMeasuring()) list.push(performance.now() - t0)
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
  // Each baseline must count what the row it is compared with counts, to the token.
  const naive1k = naiveCount(conv1k)
  if (naive1k !== tokens1k) throw new Error(`naive 1k ${naive1k} ≠ Distill's ${tokens1k}`)
  const naive10k = naiveCount(session10k)
  const stored = stored10k.reduce((s, n) => s + n, requestOverhead(spec))
  if (naive10k !== stored) throw new Error(`naive 10k ${naive10k} ≠ stored counts ${stored}`)
}, 60_000)

const slow = warmedUp({ time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 })

describe('count a 1,000-message conversation (gpt-4o, o200k_base)', () => {
  bench('naive: shared encoder, re-encode all', async () => void timed('1k naive', () => naiveCount(conv1k)), slow)
  bench(
    'cold: fresh message cache, shared encoder',
    async () => {
      await timedAsync('1k cold', () => createTokenCounter().countRequest(conv1k, spec))
    },
    slow
  )
  bench(
    'cached: every message already counted',
    async () => {
      await timedAsync('1k cached', () => warm.countRequest(conv1k, spec))
    },
    warmedUp({ time: 500 })
  )
})

describe('context total of a 10,000-message session', () => {
  bench('naive: re-tokenize the whole history', async () => void timed('10k naive', () => naiveCount(session10k)), {
    ...slow,
    iterations: 3
  })
  bench(
    'stored counts: sum token_count + overhead',
    async () => {
      void timed('10k stored', () => stored10k.reduce((s, n) => s + n, requestOverhead(spec)))
    },
    warmedUp({ time: 300 })
  )
})

// Real text: the repository's fixture conversations and, when present, the LoCoMo development split.
function realTexts(): { texts: string[]; sources: string } {
  const fixtures = readdirSync('fixtures/conversations')
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join('fixtures/conversations', f), 'utf8').split('\n').filter(Boolean))
    .map((l) => {
      const c = (JSON.parse(l) as { content: unknown }).content
      return typeof c === 'string' ? c : JSON.stringify(c)
    })
  const locomoDir = '/work/shared/data/locomo-dev'
  const locomo = existsSync(locomoDir)
    ? readdirSync(locomoDir)
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => {
          const file = JSON.parse(readFileSync(join(locomoDir, f), 'utf8')) as Record<string, unknown> & {
            conversation?: Record<string, unknown>
          }
          const conv = file.conversation ?? file
          const turns = Object.entries(conv)
            .filter(([k]) => /^session_\d+$/.test(k))
            .flatMap(([, v]) => v as Array<{ text: string; blip_caption?: string }>)
          return turns.map((t) => (t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text))
        })
    : []
  return { texts: [...fixtures, ...locomo], sources: `${fixtures.length} fixture + ${locomo.length} LoCoMo messages` }
}
const real = realTexts()
const realChars = real.texts.reduce((s, t) => s + t.length, 0)
const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base']
const tiktokens = new Map(ENCODINGS.map((e) => [e, get_encoding(e)]))
const mismatches = new Map<EncodingName, number>()
const pairedRatio = new Map<EncodingName, number>()

// Load time and memory of one encoding in a fresh process, first count included.
function loadCost(lib: 'tiktoken' | 'gpt-tokenizer', enc: EncodingName): { ms: number; mb: number } {
  const script =
    lib === 'tiktoken'
      ? `const t=performance.now(),r=process.memoryUsage().rss;const e=require('tiktoken').get_encoding('${enc}');e.encode_ordinary('hello world').length;console.log(JSON.stringify({ms:performance.now()-t,mb:(process.memoryUsage().rss-r)/1e6}))`
      : `const t=performance.now(),r=process.memoryUsage().rss;const e=require('gpt-tokenizer/encoding/${enc}').default;e.countTokens('hello world');console.log(JSON.stringify({ms:performance.now()-t,mb:(process.memoryUsage().rss-r)/1e6}))`
  const runs = [0, 1, 2].map(
    () => JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { ms: number; mb: number }
  )
  return { ms: median(runs.map((r) => r.ms)), mb: median(runs.map((r) => r.mb)) }
}

// The library itself, as Distill calls it (special tokens counted as text), outside Distill's encoder
// wrapper so its merge cache can be emptied before each run: repeated runs over the same text would
// otherwise measure a cache filled by the previous run.
const requireCjs = createRequire(import.meta.url)
const gptTokenizers = new Map(
  ENCODINGS.map((e) => [e, (requireCjs(`gpt-tokenizer/encoding/${e}`) as { default: GptEncoding }).default])
)
const ORDINARY = { disallowedSpecial: new Set<string>() }

for (const enc of ENCODINGS) {
  describe(`tokenizer library, ${enc}: ${real.sources}`, () => {
    bench(
      'tiktoken (WASM): encode_ordinary',
      async () => {
        const tk = tiktokens.get(enc)!
        void timed(`${enc} tiktoken`, () => real.texts.reduce((s, t) => s + tk.encode_ordinary(t).length, 0))
      },
      slow
    )
    bench(
      'gpt-tokenizer: countTokens, merge cache emptied first',
      async () => {
        const gt = gptTokenizers.get(enc)!
        gt.clearMergeCache()
        void timed(`${enc} gpt-tokenizer`, () => real.texts.reduce((s, t) => s + gt.countTokens(t, ORDINARY), 0))
      },
      slow
    )
  })
}

afterAll(() => {
  // Distill's counter (the path stored counts come from) against tiktoken, message by message.
  for (const enc of ENCODINGS) {
    const tk = tiktokens.get(enc)!
    mismatches.set(enc, real.texts.filter((t) => tk.encode_ordinary(t).length !== countTextTokens(t, enc)).length)
  }
  // The machine is shared: besides vitest's runs above (one library after the other), time the two
  // in alternating pairs, so a change in load hits both alike, and report the median ratio.
  for (const enc of ENCODINGS) {
    const tk = tiktokens.get(enc)!
    const gt = gptTokenizers.get(enc)!
    const ratios: number[] = []
    for (let round = 0; round < 7; round++) {
      gt.clearMergeCache()
      const runs = [
        () => timed(`${enc} pair tiktoken`, () => real.texts.reduce((n, t) => n + tk.encode_ordinary(t).length, 0)),
        () => timed(`${enc} pair gpt-tokenizer`, () => real.texts.reduce((n, t) => n + gt.countTokens(t, ORDINARY), 0))
      ]
      for (const run of round % 2 ? runs.reverse() : runs) run()
      ratios.push(timings.get(`${enc} pair tiktoken`)!.at(-1)! / timings.get(`${enc} pair gpt-tokenizer`)!.at(-1)!)
    }
    pairedRatio.set(enc, median(ratios))
  }
  for (const tk of tiktokens.values()) tk.free()
  const m = (k: string) => median(timings.get(k) ?? [])
  const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(1)} ms`)
  const rows = [
    ['1,000 msgs, naive (baseline)', m('1k naive'), m('1k naive')],
    ['1,000 msgs, cold cache', m('1k cold'), m('1k naive')],
    ['1,000 msgs, cached', m('1k cached'), m('1k naive')],
    ['10,000 msgs, naive recount (baseline)', m('10k naive'), m('10k naive')],
    ['10,000 msgs, sum of stored counts', m('10k stored'), m('10k naive')]
  ] as const
  const lines = rows.map(
    ([label, ms, base]) =>
      `  ${label.padEnd(40)} ${fmt(ms).padStart(10)}   ${Math.round(base / ms)
        .toLocaleString('en')
        .padStart(9)}x vs naive`
  )
  const verdict = firstCountMs < 500 ? 'within' : 'OVER'
  console.log(
    [
      '',
      `Token accounting (median per run; ${tokens1k.toLocaleString('en')} tokens in the 1,000-message conversation)`,
      ...lines,
      `  first count after launch (encoder load + 1,000 msgs): ${fmt(firstCountMs)}: ${verdict} the NFR-7.1 budget of 500 ms`,
      '',
      `Tokenizer libraries on ${real.sources} (${(realChars / 1e6).toFixed(2)} M characters; load = fresh process, first count included)`,
      ...ENCODINGS.flatMap((enc) => {
        const [tk, gt] = [m(`${enc} pair tiktoken`), m(`${enc} pair gpt-tokenizer`)]
        const [tkLoad, gtLoad] = [loadCost('tiktoken', enc), loadCost('gpt-tokenizer', enc)]
        return [
          `  ${enc}: counts differing from tiktoken ${mismatches.get(enc)} of ${real.texts.length}; counting them all (7 alternating pairs, medians): tiktoken ${fmt(tk)}, gpt-tokenizer ${fmt(gt)}, ${pairedRatio.get(enc)!.toFixed(1)}x faster`,
          `    load: tiktoken ${fmt(tkLoad.ms)} +${tkLoad.mb.toFixed(0)} MB RSS, gpt-tokenizer ${fmt(gtLoad.ms)} +${gtLoad.mb.toFixed(0)} MB RSS`
        ]
      }),
      ''
    ].join('\n')
  )
  freeEncoders()
}, 300_000)
