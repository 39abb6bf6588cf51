// Opening a chat: the page the app reads now (chat.messages / history.list, newest page) beside the
// whole-history read the routes made before (the baseline, measured in the same run), for chats of
// 1k / 10k / 100k messages. `npm run bench` or `npx vitest bench --run bench/paging.bench.ts`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { storeMessages } from './stored-chat'
import { isMeasuring, warmedUp } from './measured'

const sizes = [1_000, 10_000, 100_000] as const

let app: App
let dir: string
const chats = new Map<number, string>()

function storeChat(n: number): string {
  const session = app.services.sessions.create(`paging ${n}`)
  storeMessages(app, session.id, n)
  return session.id
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'distill-paging-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  for (const n of sizes) chats.set(n, storeChat(n))
}, 600_000)

const timings = new Map<string, number[]>()
/** Times what a renderer waits for: the route's answer, serialized as the transport sends it. */
async function timed(label: string, fn: () => unknown): Promise<void> {
  const t0 = performance.now()
  const out = await fn()
  JSON.stringify(out)
  if (isMeasuring()) timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0])
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const few = warmedUp({ time: 0, iterations: 9, warmupIterations: 3, warmupTime: 0 })

for (const n of sizes) {
  describe(`opening a ${n.toLocaleString('en')}-message chat`, () => {
    // The whole history at 100k takes seconds a run, and varies by a few percent: 3 runs after 1 warm-up.
    const runs = n >= 100_000 ? { ...few, iterations: 3, warmupIterations: 1 } : { ...few, iterations: 5 }
    bench(
      'baseline: the whole history (chat.messages before paging)',
      async () => timed(`chat ${n} whole`, () => app.services.chat.messages(chats.get(n)!)),
      runs
    )
    bench(
      'paged: chat.messages, newest page',
      async () => timed(`chat ${n} page`, () => app.router.call('chat.messages', { sessionId: chats.get(n)! })),
      few
    )
    bench(
      'paged: chat.messages around a message far back',
      async () =>
        timed(`chat ${n} around`, () =>
          app.router.call('chat.messages', { sessionId: chats.get(n)!, around: Math.floor(n / 10) })
        ),
      few
    )
    bench(
      'baseline: Full history, every message (history.list before paging)',
      async () => timed(`history ${n} whole`, () => app.services.history.list(chats.get(n)!)),
      runs
    )
    bench(
      'paged: history.list, newest page',
      async () => timed(`history ${n} page`, () => app.router.call('history.list', { sessionId: chats.get(n)! })),
      few
    )
  })
}

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
  const m = (k: string) => median(timings.get(k) ?? [])
  const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`)
  const row = (label: string, key: string, base: string) =>
    `  ${label.padEnd(52)} ${fmt(m(key)).padStart(10)}   ${(m(base) / m(key)).toFixed(1).padStart(8)}x vs whole`
  console.log(
    [
      '',
      'Opening a chat (median of runs, route answer serialized; ratio = whole-history time / this time, same run)',
      ...sizes.flatMap((n) => {
        const c = `${n.toLocaleString('en')} msgs`
        return [
          row(`${c}, chat.messages, whole history (baseline)`, `chat ${n} whole`, `chat ${n} whole`),
          row(`${c}, chat.messages, newest page (200)`, `chat ${n} page`, `chat ${n} whole`),
          row(`${c}, chat.messages, around a message`, `chat ${n} around`, `chat ${n} whole`),
          row(`${c}, history.list, whole history (baseline)`, `history ${n} whole`, `history ${n} whole`),
          row(`${c}, history.list, newest page (200)`, `history ${n} page`, `history ${n} whole`)
        ]
      }),
      ''
    ].join('\n')
  )
}, 120_000)
