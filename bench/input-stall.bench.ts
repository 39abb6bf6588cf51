// The longest event-loop stall while hostile input goes in: messages of one letter or of letters
// without spaces (a single tokenizer piece each), up to 5 MB, and a 5 MB text attachment of one
// letter, sent through the router while a 1 ms timer measures how late it fires. The naive path (the
// encoder run on the whole text at once, as Distill counted before) is measured in the same run on
// a tenth of that text: it is quadratic, so the full size would take minutes. `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../e2e/fake-provider'
import { createApp, type App } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { MAX_MESSAGE_CHARS } from '../src/shared/domain/chat-message'

/** Letters in no order a tokenizer has merges for (a fixed-seed generator, so each run measures the same text). */
function randomLetters(n: number): string {
  let seed = 42
  return Array.from({ length: n }, () =>
    String.fromCharCode(97 + (((seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 16) % 26))
  ).join('')
}
const once = { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
const stalls = new Map<string, number>()

let fake: FakeProvider
let app: App
let dir: string

beforeAll(async () => {
  fake = await startFakeProvider()
  dir = mkdtempSync(join(tmpdir(), 'distill-stall-bench-'))
  app = createApp({
    dbFile: join(dir, 'bench.db'),
    mode: 'browser',
    log: silentLogger,
    env: { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseURLs.openai }
  })
}, 60_000)

/** Runs `work` while a 1 ms timer measures the event loop; resolves with the longest delay seen. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let worst = 0
  let last = performance.now()
  let running = true
  const tick = () => {
    const now = performance.now()
    worst = Math.max(worst, now - last - 1)
    last = now
    if (running) setTimeout(tick, 1)
  }
  setTimeout(tick, 1)
  await work()
  await new Promise((r) => setTimeout(r, 20))
  running = false
  return worst
}

async function call(route: string, input: unknown): Promise<unknown> {
  const r = await app.router.call(route, input)
  if (!r.ok) throw new Error(`${route}: ${r.error.message}`)
  return r.data
}

async function send(text: string, attachments: unknown[] = []): Promise<void> {
  const session = (await call('sessions.create', {})) as { id: string }
  fake.script([{ reply: 'ok' }])
  await app.router.call('chat.send', { sessionId: session.id, text, attachments }) // 5 MB of text is refused: measured all the same
  await app.services.chat.idle()
}

async function uploadAndSend(): Promise<void> {
  const data = Buffer.from('A'.repeat(5 * 1024 * 1024 - 16)).toString('base64')
  const part = (await call('attachments.upload', { filename: 'a.txt', mediaType: 'text/plain', data })) as {
    hash: string
    filename: string
  }
  await send('What is in this file?', [{ hash: part.hash, filename: part.filename }])
}

describe('event-loop stall while a pathological message and attachment are sent', () => {
  bench(
    'naive: one encoder call on a 100,000-character run',
    async () => {
      const load = createRequire(import.meta.url)
      const { GptEncoding: Gpt } = load('gpt-tokenizer/GptEncoding') as { GptEncoding: typeof GptEncoding }
      const api = Gpt.getEncodingApi(
        'o200k_base',
        () => (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: never }).default
      )
      stalls.set('naive', await longestStall(async () => api.countTokens('b'.repeat(MAX_MESSAGE_CHARS / 10))))
    },
    once
  )
  bench(
    'distill: each hostile input through the router',
    async () => {
      await send('hello') // the first reply loads the provider's modules: not what is measured
      stalls.set('message5m', await longestStall(() => send('b'.repeat(5_000_000))))
      stalls.set('message200k', await longestStall(() => send('b'.repeat(200_000))))
      stalls.set('random200k', await longestStall(() => send(randomLetters(200_000))))
      stalls.set('message1m', await longestStall(() => send('b'.repeat(MAX_MESSAGE_CHARS))))
      stalls.set('attachment', await longestStall(uploadAndSend))
    },
    once
  )
})

afterAll(async () => {
  await app.close()
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
  const fmt = (k: string) => `${(stalls.get(k) ?? NaN).toFixed(0)} ms`
  console.log(
    [
      '',
      'Longest event-loop stall',
      `  naive, one encoder call on a 100,000-character run     ${fmt('naive').padStart(9)}`,
      `  distill, 5 MB message of one letter (refused: too long) ${fmt('message5m').padStart(8)}`,
      `  distill, 200,000 × "b"                                 ${fmt('message200k').padStart(9)}`,
      `  distill, 200,000 letters without a space               ${fmt('random200k').padStart(9)}`,
      `  distill, 1,000,000 × "b" (the longest message taken)   ${fmt('message1m').padStart(9)}`,
      `  distill, 5 MB attachment of "A", uploaded and sent     ${fmt('attachment').padStart(9)}`,
      ''
    ].join('\n')
  )
})
