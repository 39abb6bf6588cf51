// The longest stall of the main process's event loop while a chat of N messages is compressed offline,
// with each strategy: the summary (rolling) or the strategy's decision (tiered, importance) made on the
// main thread (before) and on a worker thread (now), the history read a page at a time, same chats,
// same run. A timer that should fire every 5 ms records the longest gap;
// while the loop is stalled no reply streams and no request is answered. `npm run bench`.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { silentLogger } from '../src/main/logger'
import { countMessage } from '../src/main/tokens/message-tokens'
import { isMeasuring, warmedUp } from './measured'

const few = warmedUp({ time: 0, iterations: 3, warmupIterations: 1, warmupTime: 0 })
// The 1,000-message group of the same strategy ran just before on the same apps: warm already.
const warm = { ...few, warmupIterations: 0 }
const dir = mkdtempSync(join(tmpdir(), 'distill-stall-bench-'))
const stalls = new Map<string, number[]>()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

/** The project's fake provider in its own process, so serving the model's summary costs this loop nothing. */
function startFake(): Promise<{ stop(): void; openai: string }> {
  const root = join(__dirname, '..')
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(root, 'e2e', 'fake-provider', 'cli.ts'),
      '--port',
      '0',
      '--quiet'
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit']
    }
  )
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk)
      const m = /OPENAI_BASE_URL=(\S+)/.exec(out)
      if (m) resolve({ stop: () => child.kill(), openai: m[1]! })
    })
    child.on('exit', (code) => reject(new Error(`the fake provider exited (${code})`)))
  })
}
const fake = await startFake()

function openApp(name: string, summaryThread: boolean, summarizer: 'extractive' | 'llm' = 'extractive'): App {
  const env = { OPENAI_API_KEY: 'sk-bench-fake', OPENAI_BASE_URL: fake.openai }
  const app = createApp({ dbFile: join(dir, `${name}.db`), mode: 'browser', log: silentLogger, summaryThread, env })
  app.services.settings.update({ summarizer })
  return app
}

type Strategy = 'rolling' | 'tiered' | 'importance'
const STRATEGIES: Strategy[] = ['rolling', 'tiered', 'importance']

/**
 * A chat of n stored messages (counted as the app counts them) on GPT-4o, written as `distill
 * import` writes a chat (one multi-row INSERT a chunk): appending them one by one would take longer
 * than the compression measured.
 */
function chat(app: App, n: number, strategy: Strategy): string {
  const session = app.services.sessions.create('bench')
  app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o', strategy })
  const spec = app.services.models.spec('openai', 'gpt-4o')
  app.database.db.transaction((tx) =>
    insertImportedMessages(
      tx,
      session.id,
      (function* () {
        for (let i = 0; i < n; i++) {
          const parts = [
            {
              type: 'text' as const,
              text: `Turn ${i}: we moved ${i * 7} pallets to zone ${i % 97} on day ${(i % 28) + 1}. Forklift ${i % 13} needs a check. Maria said dock door ${i % 5} sticks.`
            }
          ]
          const role = i % 2 ? ('assistant' as const) : ('user' as const)
          const c = countMessage({ role, parts }, spec)
          yield {
            id: `${session.id}-${i}`,
            role,
            parts,
            createdAt: i * 60_000,
            tokenCount: c.tokens,
            tokenCounter: c.counter
          }
        }
      })()
    )
  )
  return session.id
}

/** Compresses a fresh chat of n messages and records the longest event-loop stall meanwhile. */
async function compress(app: App, label: string, n: number, strategy: Strategy): Promise<void> {
  const sessionId = chat(app, n, strategy)
  let longest = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last - 5)
    last = now
  }, 5)
  await app.services.compression.run(sessionId, {})
  // Let the timer see the last stretch.
  await new Promise((resolve) => setTimeout(resolve, 15))
  clearInterval(timer)
  if (isMeasuring()) stalls.set(label, [...(stalls.get(label) ?? []), longest])
}

const inline = openApp('inline', false)
const threaded = openApp('threaded', true)
// Summarize by hand with the model summarizer: the transcript is read in turns, the Details check is threaded.
const modelInline = openApp('model-inline', false, 'llm')
const modelThreaded = openApp('model-threaded', true, 'llm')

afterAll(async () => {
  for (const app of [inline, threaded, modelInline, modelThreaded]) await app.close()
  fake.stop()
  rmSync(dir, { recursive: true, force: true })
  for (const strategy of STRATEGIES) {
    for (const n of [1_000, 10_000]) {
      const before = median(stalls.get(`inline ${strategy} ${n}`) ?? [])
      const now = median(stalls.get(`thread ${strategy} ${n}`) ?? [])
      console.log(
        `longest event-loop stall compressing ${n.toLocaleString('en-US')} messages (${strategy}): main thread ${before.toFixed(0)} ms, worker ${now.toFixed(0)} ms (${(before / Math.max(1, now)).toFixed(1)}x)`
      )
    }
  }
  const before = median(stalls.get('inline model 10000') ?? [])
  const now = median(stalls.get('thread model 10000') ?? [])
  console.log(
    `longest event-loop stall summarizing 10,000 messages with the model (fake provider): main thread ${before.toFixed(0)} ms, worker ${now.toFixed(0)} ms (${(before / Math.max(1, now)).toFixed(1)}x)`
  )
}, 120_000)

for (const strategy of STRATEGIES) {
  for (const n of [1_000, 10_000]) {
    describe(`compression stall, ${strategy}, ${n.toLocaleString('en-US')} messages`, () => {
      bench(
        `on the main thread (before), ${strategy} ${n}`,
        async () => compress(inline, `inline ${strategy} ${n}`, n, strategy),
        n > 1_000 ? warm : few
      )
      bench(
        `on a worker thread, ${strategy} ${n}`,
        async () => compress(threaded, `thread ${strategy} ${n}`, n, strategy),
        n > 1_000 ? warm : few
      )
    })
  }
}

describe('compression stall, model summary, 10,000 messages', () => {
  bench(
    'Details check on the main thread (before), model 10000',
    async () => compress(modelInline, 'inline model 10000', 10_000, 'rolling'),
    few
  )
  bench(
    'Details check on a worker thread, model 10000',
    async () => compress(modelThreaded, 'thread model 10000', 10_000, 'rolling'),
    few
  )
})
