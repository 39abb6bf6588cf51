// The longest stall of the main process's event loop while a chat of N messages is compressed with the
// offline extractive summarizer: on the main thread (before) and with the summary written on a worker
// thread (now), same chats, same run. A timer that should fire every 5 ms records the longest gap;
// while the loop is stalled no reply streams and no request is answered. `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { appendMessage } from '../src/main/db/repositories/messages-repo'
import { silentLogger } from '../src/main/logger'
import { countMessage } from '../src/main/tokens/message-tokens'

const few = { time: 0, iterations: 3, warmupIterations: 1, warmupTime: 0 }
const dir = mkdtempSync(join(tmpdir(), 'distill-stall-bench-'))
const stalls = new Map<string, number[]>()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

function openApp(name: string, summaryThread: boolean): App {
  const app = createApp({ dbFile: join(dir, `${name}.db`), mode: 'browser', log: silentLogger, summaryThread })
  app.services.settings.update({ summarizer: 'extractive' })
  return app
}

/** A chat of n stored messages (counted as the app counts them) on GPT-4o. */
function chat(app: App, n: number): string {
  const session = app.services.sessions.create('bench')
  app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
  const spec = app.services.models.spec('openai', 'gpt-4o')
  app.database.db.transaction((tx) => {
    for (let i = 0; i < n; i++) {
      const parts = [{ type: 'text' as const, text: `Turn ${i}: we moved ${i * 7} pallets to zone ${i % 97} on day ${(i % 28) + 1}. Forklift ${i % 13} needs a check. Maria said dock door ${i % 5} sticks.` }]
      const role = i % 2 ? ('assistant' as const) : ('user' as const)
      const c = countMessage({ role, parts }, spec)
      appendMessage(tx, { id: `${session.id}-${i}`, sessionId: session.id, role, parts, status: 'complete', createdAt: i * 60_000, tokenCount: c.tokens, tokenCounter: c.counter })
    }
  })
  return session.id
}

/** Compresses a fresh chat of n messages and records the longest event-loop stall meanwhile. */
async function compress(app: App, label: string, n: number): Promise<void> {
  const sessionId = chat(app, n)
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
  stalls.set(label, [...(stalls.get(label) ?? []), longest])
}

const inline = openApp('inline', false)
const threaded = openApp('threaded', true)

afterAll(async () => {
  await inline.close()
  await threaded.close()
  rmSync(dir, { recursive: true, force: true })
  for (const n of [1_000, 10_000]) {
    const before = median(stalls.get(`inline ${n}`) ?? [])
    const now = median(stalls.get(`thread ${n}`) ?? [])
    console.log(`longest event-loop stall compressing ${n.toLocaleString('en-US')} messages: main thread ${before.toFixed(0)} ms, worker ${now.toFixed(0)} ms (${(before / Math.max(1, now)).toFixed(1)}x)`)
  }
})

for (const n of [1_000, 10_000]) {
  describe(`compression stall, ${n.toLocaleString('en-US')} messages`, () => {
    bench(`summary on the main thread (before), ${n}`, () => compress(inline, `inline ${n}`, n), few)
    bench(`summary on a worker thread, ${n}`, () => compress(threaded, `thread ${n}`, n), few)
  })
}
