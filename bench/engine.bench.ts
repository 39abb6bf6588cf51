// Compression engine benchmarks (NFR-7.2 summarization < 10 s for 1,000 messages; NFR-7.3 context
// construction < 100 ms). `npm run bench`. Each group has a naive baseline measured in the same run;
// the table after the run prints the ratios.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { get_encoding } from 'tiktoken'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { listMessages } from '../src/main/db/repositories/messages-repo'
import { buildContext } from '../src/main/engine/build-context'
import { computeBudget } from '../src/main/engine/budget'
import { summarizeExtractive } from '../src/main/engine/extractive/summarize-extractive'
import { planCompression } from '../src/main/engine/plan-compression'
import type { EngineMessage } from '../src/main/engine/types'
import { parseOpenAIMessages, type ImportedMessage } from '../src/main/importers/openai-messages'
import { silentLogger } from '../src/main/logger'
import { resolveModel } from '../src/main/models/catalog'
import { buildModelRequest } from '../src/main/services/request-builder'
import { replayConversation } from '../src/main/services/replay'
import { freeEncoders } from '../src/main/tokens/encoders'
import { countMessage } from '../src/main/tokens/message-tokens'

const spec = resolveModel('openai', 'gpt-4o')!
const budget = computeBudget({ contextWindow: 128_000, maxOutput: 16_384, safetyMarginPercent: 5, thresholdPercent: 95 })
const settings = { thresholdPercent: 95, retentionTokens: 1000, minimumTokens: 2000 }
const chars4 = (t: string) => Math.ceil(t.length / 4) + 3

const fixture = readFileSync(join(__dirname, '..', 'fixtures', 'conversations', 'software-project.jsonl'), 'utf8')
const source = parseOpenAIMessages(fixture)
const textOf = (m: ImportedMessage) => m.parts.map((p) => (p.type === 'text' ? p.text : JSON.stringify(p))).join('\n')

/** n messages cycled from a real fixture conversation, with stored counts as the database holds them. */
function engineMessages(n: number): EngineMessage[] {
  return Array.from({ length: n }, (_, i) => {
    const m = source[i % source.length]!
    return { id: `m${i}`, seq: i + 1, role: m.role, text: textOf(m), tokens: countMessage(m, spec).tokens, createdAt: i }
  })
}
const sizes = [1_000, 10_000, 100_000] as const
const corpora = new Map(sizes.map((n) => [n, engineMessages(n)]))

/** Naive: re-tokenize every message on every request, then keep the newest that fit. */
const enc = get_encoding('o200k_base')
function naiveContext(messages: readonly EngineMessage[]): number {
  let total = 0
  const kept: string[] = []
  for (let i = messages.length - 1; i >= 0; i--) {
    const tokens = enc.encode_ordinary(messages[i]!.text).length + 4
    if (total + tokens > budget.usable) break
    total += tokens
    kept.push(messages[i]!.text)
  }
  return total
}

const timings = new Map<string, number[]>()
function timed<T>(label: string, fn: () => T): T {
  const t0 = performance.now()
  const out = fn()
  timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0])
  return out
}
async function timedAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now()
  const out = await fn()
  timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0])
  return out
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const few = { time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 }

for (const n of sizes) {
  const messages = corpora.get(n)!
  describe(`context construction, ${n.toLocaleString('en')} messages`, () => {
    bench('naive: re-tokenize history every request', () => void timed(`ctx ${n} naive`, () => naiveContext(messages)), few)
    bench('engine: plan + buildContext from stored counts', () => {
      timed(`ctx ${n} engine`, () => {
        const plan = planCompression({ messages, systemTokens: 50, pendingInputTokens: 40, overheadTokens: 3, budget, settings })
        return buildContext({
          summary: { id: 's', text: 'summary', tokens: plan.targetSummaryTokens },
          messages: plan.retained,
          input: { text: 'next question', tokens: 8 },
          usable: budget.usable,
          overheadTokens: 3,
          countTokens: chars4
        })
      })
    }, few)
  })
}

// The same, end to end from the SQLite file: what a request pays before it is sent.
let app: App
let dir: string
let sessionId: string
let summarizedId: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'distill-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  const session = app.services.sessions.create('bench')
  app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
  sessionId = session.id
  for (let i = 0; i < 10_000; i++) await app.services.chat.append(session.id, source[i % source.length]!)
  // The usual state of a long chat: compressed, with recent messages after the summary's cutoff.
  const summarized = app.services.sessions.create('bench, summarized')
  app.services.sessions.update(summarized.id, { provider: 'openai', modelId: 'gpt-4o' })
  summarizedId = summarized.id
  for (let i = 0; i < 10_000; i++) await app.services.chat.append(summarized.id, source[i % source.length]!)
  await app.services.compression.run(summarized.id, { summarizer: 'truncate', retentionOverride: 60_000 })
}, 300_000)

describe('context from the database, 10,000-message session', () => {
  bench('naive: load all, re-tokenize all', () => {
    timed('db naive', () => naiveContext(listMessages(app.database.db, sessionId).map((m, i) => ({ id: m.id, seq: i, role: m.role, text: m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), tokens: 0, createdAt: 0 }))))
  }, few)
  bench('distill: conversation + request from stored counts', () => {
    timed('db distill', () => {
      const conv = app.services.usage.conversation(sessionId)
      return buildModelRequest(conv)
    })
  }, few)
})

describe('context from the database, 10,000-message session with a summary', () => {
  bench('naive: load all, re-tokenize all', () => {
    timed('dbs naive', () => naiveContext(listMessages(app.database.db, summarizedId).map((m, i) => ({ id: m.id, seq: i, role: m.role, text: m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), tokens: 0, createdAt: 0 }))))
  }, few)
  bench('distill: conversation + request from stored counts', () => {
    timed('dbs distill', () => buildModelRequest(app.services.usage.conversation(summarizedId)))
  }, few)
})

describe('extractive summary of 1,000 messages', () => {
  const thousand = corpora.get(1_000)!
  bench('naive: keep the first sentences until full', () => {
    timed('sum naive', () => {
      let out = ''
      for (const m of thousand) {
        if (chars4(out + m.text) > 4000) break
        out += `${m.text}\n`
      }
      return out
    })
  }, few)
  bench('extractive: scored, novelty-aware selection', () => {
    timed('sum extractive', () => summarizeExtractive({ messages: thousand, targetTokens: 4000, countTokens: chars4 }))
  }, few)
})

describe('replay throughput (fixture into an 8k window, extractive summaries)', () => {
  bench('naive: recount the whole history at every request', () => {
    timed('replay naive', () => {
      const history: string[] = []
      for (const m of source) {
        history.push(textOf(m))
        if (m.role === 'user') history.reduce((s, t) => s + enc.encode_ordinary(t).length, 0)
      }
    })
  }, few)
  bench('distill replay: store, count once, compress when needed', async () => {
    const replayDir = mkdtempSync(join(tmpdir(), 'distill-replay-bench-'))
    const replayApp = createApp({ dbFile: join(replayDir, 'r.db'), mode: 'browser', log: silentLogger, env: {} })
    await timedAsync('replay distill', () =>
      replayConversation(replayApp, source, { model: spec, contextWindow: 8192, maxOutput: 1024, summarizer: 'extractive' })
    )
    await replayApp.close()
    rmSync(replayDir, { recursive: true, force: true })
  }, { ...few, iterations: 3 })
})

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
  enc.free()
  const m = (k: string) => median(timings.get(k) ?? [])
  const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`)
  const row = (label: string, key: string, base: string) =>
    `  ${label.padEnd(52)} ${fmt(m(key)).padStart(10)}   ${(m(base) / m(key)).toFixed(1).padStart(8)}x vs naive`
  console.log(
    [
      '',
      'Compression engine (median of runs; ratio = naive time / this time, same run)',
      ...sizes.flatMap((n) => [
        row(`context, ${n.toLocaleString('en')} msgs, naive re-tokenize (baseline)`, `ctx ${n} naive`, `ctx ${n} naive`),
        row(`context, ${n.toLocaleString('en')} msgs, plan + build from stored counts`, `ctx ${n} engine`, `ctx ${n} naive`)
      ]),
      row('context from SQLite, 10k msgs, naive (baseline)', 'db naive', 'db naive'),
      row('context from SQLite, 10k msgs, distill', 'db distill', 'db naive'),
      row('same, compressed chat, naive (baseline)', 'dbs naive', 'dbs naive'),
      row('same, compressed chat, distill', 'dbs distill', 'dbs naive'),
      row('summary of 1,000 msgs, first-sentences (baseline)', 'sum naive', 'sum naive'),
      row('summary of 1,000 msgs, extractive', 'sum extractive', 'sum naive'),
      row(`replay ${source.length} msgs, naive recount (baseline)`, 'replay naive', 'replay naive'),
      row(`replay ${source.length} msgs, distill (store+count+compress)`, 'replay distill', 'replay naive'),
      `  NFR-7.3 context construction < 100 ms: engine ${m('ctx 10000 engine') < 100 ? 'met' : 'NOT met'} (${fmt(m('ctx 10000 engine'))} at 10k messages); from SQLite ${fmt(m('dbs distill'))} for a compressed 10k chat, ${fmt(m('db distill'))} for one never compressed`,
      `  NFR-7.2 summarization of 1,000 messages < 10 s: ${m('sum extractive') < 10_000 ? 'met' : 'NOT met'} (${fmt(m('sum extractive'))}, extractive)`,
      ''
    ].join('\n')
  )
  freeEncoders()
})
