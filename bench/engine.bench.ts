// Compression engine benchmarks (NFR-7.2 summarization < 10 s for 1,000 messages; NFR-7.3 context
// construction < 100 ms). `npm run bench`. Each group has a naive baseline measured in the same run;
// the table after the run prints the ratios.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { get_encoding } from 'tiktoken'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { appendMessage, listMessages } from '../src/main/db/repositories/messages-repo'
import { noteWrite } from '../src/main/db/repositories/write-generation'
import { buildContext } from '../src/main/engine/build-context'
import { computeBudget } from '../src/main/engine/budget'
import { summarizeExtractive } from '../src/main/engine/extractive/summarize-extractive'
import { planCompression } from '../src/main/engine/plan-compression'
import type { EngineMessage } from '../src/main/engine/types'
import { parseOpenAIMessages, type ImportedMessage } from '../src/main/importers/openai-messages'
import { silentLogger } from '../src/main/logger'
import { resolveModel } from '../src/main/models/catalog'
import { buildModelRequest } from '../src/main/services/conversation/request-builder'
import { replayConversation } from '../src/main/cli/replay'
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

// The same, end to end from the SQLite file: what a request pays before it is sent (`distill
// context` runs exactly this), for chats of 1k / 10k / 100k messages, never compressed and compressed.
let app: App
let dir: string
const chats = new Map<string, string>()
const chatKey = (n: number, compressed: boolean) => `${n}${compressed ? ' compressed' : ''}`
/** Stored as the app stores them (counted once, on write); written in one transaction to keep setup short. */
function storeChat(n: number): string {
  const session = app.services.sessions.create(`bench ${n}`)
  app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
  const counts = source.map((m) => countMessage(m, spec))
  app.database.db.transaction((tx) => {
    for (let i = 0; i < n; i++) {
      const m = source[i % source.length]!
      const counted = counts[i % source.length]!
      appendMessage(tx, { id: `${session.id}-${i}`, sessionId: session.id, role: m.role, parts: m.parts, status: 'complete', createdAt: i, tokenCount: counted.tokens, tokenCounter: counted.counter })
    }
  })
  return session.id
}
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'distill-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  for (const n of sizes) {
    chats.set(chatKey(n, false), storeChat(n))
    // The usual state of a long chat: compressed, with recent messages after the summary's cutoff.
    const compressed = storeChat(n)
    await app.services.compression.run(compressed, { summarizer: 'truncate', retentionOverride: 60_000 })
    chats.set(chatKey(n, true), compressed)
  }
}, 600_000)

/** Naive: load every stored message, re-tokenize from the newest until the budget is full. */
const naiveFromDb = (sessionId: string) =>
  naiveContext(listMessages(app.database.db, sessionId).map((m, i) => ({ id: m.id, seq: i, role: m.role, text: m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''), tokens: 0, createdAt: 0 })))
/** The request path: the chat's totals (cached while it is not written), the summary, the newest messages that fit. */
const distillRequest = (sessionId: string) => buildModelRequest(app.services.usage.conversation(sessionId))

for (const n of sizes) {
  for (const compressed of [false, true]) {
    const key = chatKey(n, compressed)
    describe(`context from the database, ${n.toLocaleString('en')}-message chat${compressed ? ', compressed' : ''}`, () => {
      bench('naive: load all, re-tokenize until full', () => void timed(`db ${key} naive`, () => naiveFromDb(chats.get(key)!)), { ...few, iterations: n >= 100_000 ? 2 : 5 })
      bench('distill: request after a new message', () => {
        const sessionId = chats.get(key)!
        // What a chat does before each request: the user's message is stored (and counted).
        appendMessage(app.database.db, { id: `${sessionId}-q${Math.random()}`, sessionId, role: 'user', parts: [{ type: 'text', text: 'And then?' }], status: 'complete', createdAt: 0, tokenCount: 7, tokenCounter: countMessage(source[0]!, spec).counter })
        timed(`db ${key} cold`, () => distillRequest(sessionId))
      }, few)
      bench('distill: first request in a process (every total from SQL)', () => {
        const sessionId = chats.get(key)!
        noteWrite(app.database.db, sessionId)
        timed(`db ${key} first`, () => distillRequest(sessionId))
      }, few)
      bench('distill: the meter while typing (chat.context with a draft)', () => {
        const sessionId = chats.get(key)!
        app.services.usage.context(sessionId, 'And then what happened to the')
        timed(`db ${key} meter`, () => app.services.usage.context(sessionId, 'And then what happened to the order?'))
      }, few)
      bench('distill: request, chat unchanged since the last one', () => {
        const sessionId = chats.get(key)!
        distillRequest(sessionId)
        timed(`db ${key} warm`, () => distillRequest(sessionId))
      }, few)
    })
  }
}

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
      ...sizes.flatMap((n) =>
        [false, true].flatMap((compressed) => {
          const key = chatKey(n, compressed)
          const label = `SQLite, ${n.toLocaleString('en')} msgs${compressed ? ', compressed' : ''}`
          return [
            row(`${label}, naive (baseline)`, `db ${key} naive`, `db ${key} naive`),
            row(`${label}, distill, first request`, `db ${key} first`, `db ${key} naive`),
            row(`${label}, distill after a new message`, `db ${key} cold`, `db ${key} naive`),
            row(`${label}, distill unchanged`, `db ${key} warm`, `db ${key} naive`),
            row(`${label}, meter while typing`, `db ${key} meter`, `db ${key} naive`)
          ]
        })
      ),
      row('summary of 1,000 msgs, first-sentences (baseline)', 'sum naive', 'sum naive'),
      row('summary of 1,000 msgs, extractive', 'sum extractive', 'sum naive'),
      row(`replay ${source.length} msgs, naive recount (baseline)`, 'replay naive', 'replay naive'),
      row(`replay ${source.length} msgs, distill (store+count+compress)`, 'replay distill', 'replay naive'),
      `  NFR-7.3 context construction < 100 ms: engine ${m('ctx 10000 engine') < 100 ? 'met' : 'NOT met'} (${fmt(m('ctx 10000 engine'))} at 10k messages); from SQLite ${fmt(m('db 10000 compressed cold'))} for a compressed 10k chat, ${fmt(m('db 10000 cold'))} for one never compressed`,
      `  Goal < 10 ms at 100k from SQLite: ${Math.max(m('db 100000 cold'), m('db 100000 compressed cold')) < 10 ? 'met' : 'NOT met'} (after a new message ${fmt(m('db 100000 cold'))}, unchanged ${fmt(m('db 100000 warm'))}, first request ${fmt(m('db 100000 first'))}; compressed ${fmt(m('db 100000 compressed cold'))})`,
      `  NFR-7.2 summarization of 1,000 messages < 10 s: ${m('sum extractive') < 10_000 ? 'met' : 'NOT met'} (${fmt(m('sum extractive'))}, extractive)`,
      ''
    ].join('\n')
  )
  freeEncoders()
})
