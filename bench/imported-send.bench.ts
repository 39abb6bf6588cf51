// The first send in a chat imported with a long history (never compressed), against a send in a
// 1,000-message chat with nothing due, same run: the time to the reply's first streamed token, the
// longest stall of the event loop meanwhile, and `distill context`'s work (the next summary and the
// request it shows) for the same chats. The quick summary of a backlog reads only the history's
// newest part; the whole history's summary follows in the background. Then, on an 8k window, the
// same 10,000-message chat with nothing due (summarized before) and with a compression due that the
// request cannot go without (never summarized, no summary written ahead), in the same run, each
// three times: what the quick summary adds to the first token. `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../e2e/fake-provider'
import { createApp, type App } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { countMessage } from '../src/main/tokens/message-tokens'
import { goalLine, fmtMs } from './goal'
import { watchLoop } from './loop-probe'
import { storeMessages } from './stored-chat'

const once = { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
const figures = new Map<string, { firstToken?: number; stall?: number; context?: number }>()
/** The 8k rows, every run: first token and longest stall. */
const runs = new Map<string, Array<{ firstToken: number; stall: number }>>()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

let fake: FakeProvider
let app: App
let dir: string

beforeAll(async () => {
  fake = await startFakeProvider()
  dir = mkdtempSync(join(tmpdir(), 'distill-imported-bench-'))
  app = createApp({
    dbFile: join(dir, 'bench.db'),
    mode: 'browser',
    log: silentLogger,
    env: { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseURLs.openai }
  })
  app.services.settings.update({
    customModels: [
      { provider: 'openai', id: 'chat-16k', contextWindow: 16_384, maxOutput: 1024 },
      { provider: 'openai', id: 'chat-8k', contextWindow: 8192, maxOutput: 1024 }
    ],
    summarizer: 'extractive'
  })
}, 60_000)

/** A chat imported with `n` messages of a real conversation, counted as the app counts them. */
function imported(n: number, modelId = 'chat-16k', shift = 0): string {
  const session = app.services.sessions.create(`imported ${n}`)
  app.services.sessions.update(session.id, { provider: 'openai', modelId })
  const spec = app.services.models.spec('openai', modelId)
  storeMessages(app, session.id, n, { shift, count: (m) => countMessage(m, spec) })
  return session.id
}

function firstToken(sessionId: string): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now()
    const off = app.events.subscribe((e) => {
      if (e.event === 'chat.delta' && (e.payload as { sessionId: string }).sessionId === sessionId) {
        off()
        resolve(performance.now() - started)
      }
    })
    app.services.chat.send(sessionId, 'What did we decide about the release?')
  })
}

async function measure(label: string, n: number, warmFirst: boolean): Promise<void> {
  const sessionId = imported(n)
  // The 1k baseline has a summary already: its send has nothing due, as in daily use.
  if (warmFirst) await app.services.compression.run(sessionId, { summarizer: 'extractive' })
  let started = performance.now()
  const next = await app.services.compression.nextSummary(sessionId, 'What did we decide about the release?')
  app.services.next.built(sessionId, 'What did we decide about the release?', next)
  const context = performance.now() - started
  fake.script([{ reply: 'We ship on Friday.' }])
  const stop = watchLoop()
  started = performance.now()
  const ms = await firstToken(sessionId)
  figures.set(label, { firstToken: ms, stall: stop(), context })
  await app.services.chat.idle()
  app.services.compression.cancel(sessionId)
  await app.services.compression.backgroundSettled(sessionId)
  fake.reset()
}

let shift = 0
/**
 * A 10,000-message chat on the 8k window, its first token and longest stall: summarized before (nothing
 * due), or never (the request cannot go without a summary: the quick one is written first).
 */
async function measure8k(label: string, due: boolean): Promise<void> {
  const sessionId = imported(10_000, 'chat-8k', ++shift)
  if (!due) await app.services.compression.run(sessionId, { summarizer: 'extractive' })
  fake.script([{ reply: 'We ship on Friday.' }])
  const stop = watchLoop()
  const ms = await firstToken(sessionId)
  runs.set(label, [...(runs.get(label) ?? []), { firstToken: ms, stall: stop() }])
  await app.services.chat.idle()
  app.services.compression.cancel(sessionId)
  await app.services.compression.backgroundSettled(sessionId)
  fake.reset()
}

describe('first send in an imported chat (16k window)', () => {
  bench('1k chat, nothing due (baseline)', async () => measure('1k', 1_000, true), once)
  bench(
    '1k imported, never compressed (baseline of `distill context`)',
    async () => measure('1k imported', 1_000, false),
    once
  )
  bench('10k imported, never compressed', async () => measure('10k', 10_000, false), once)
  bench('100k imported, never compressed', async () => measure('100k', 100_000, false), { ...once })
})

describe('10k chat on an 8k window: compression due vs nothing due', () => {
  const thrice = { ...once, iterations: 3 }
  bench('10k, nothing due (8k window)', async () => measure8k('10k nothing due', false), thrice)
  bench('10k, compression due, nothing written ahead (8k window)', async () => measure8k('10k due', true), thrice)
})

afterAll(async () => {
  await app.close()
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
  const f = (k: string) => figures.get(k) ?? {}
  const row = (k: string, label: string) =>
    `  ${label.padEnd(34)} first token ${fmtMs(f(k).firstToken ?? NaN).padStart(9)}   longest stall ${fmtMs(f(k).stall ?? NaN).padStart(9)}   context ${fmtMs(f(k).context ?? NaN).padStart(9)}`
  const pick = (k: string, f: 'firstToken' | 'stall') => median((runs.get(k) ?? []).map((r) => r[f]))
  const range = (k: string, f: 'firstToken' | 'stall') => {
    const xs = (runs.get(k) ?? []).map((r) => r[f])
    return `${fmtMs(pick(k, f))} [${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))}]`
  }
  const row8k = (k: string, label: string) =>
    `  ${label.padEnd(34)} first token ${range(k, 'firstToken').padStart(28)}   longest stall ${range(k, 'stall').padStart(28)}`
  const ratio = (k: string) => ((f(k).context ?? NaN) / (f('1k imported').context ?? NaN)).toFixed(2)
  console.log(
    [
      '',
      'First send in an imported chat, and `distill context` on it (its summary and request, computed)',
      row('1k', '1,000 messages, nothing due'),
      row('1k imported', '1,000 imported, never compressed'),
      row('10k', '10,000 imported, never compressed'),
      row('100k', '100,000 imported, never compressed'),
      `  \`distill context\` at 10k ×${ratio('10k')} and at 100k ×${ratio('100k')} the 1k imported chat's (goal ≤ ×1.5)`,
      goalLine('first token at 100k', 1000, [['100k', f('100k').firstToken ?? NaN]]),
      goalLine('added at 10k over nothing due', 200, [
        ['10k', (f('10k').firstToken ?? NaN) - (f('1k').firstToken ?? NaN)]
      ]),
      '',
      '10k, compression due vs nothing due (8k window, 3 runs each, median [min–max])',
      row8k('10k nothing due', '10,000 messages, nothing due'),
      row8k('10k due', '10,000 messages, compression due'),
      goalLine('added at 10k on 8k by a compression due (medians)', 200, [
        ['10k due', pick('10k due', 'firstToken') - pick('10k nothing due', 'firstToken')]
      ]),
      ''
    ].join('\n')
  )
}, 120_000)
