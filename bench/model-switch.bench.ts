// The longest stall of the event loop while a 100,000-message chat is switched between models with
// other tokenizers (GPT-4o: o200k; Claude and Gemini: cl100k estimates) and the meter asks for the
// context as the renderer does (chat.context every 30 ms), the background recount running. The
// encoders are freed first, as in a process just started: the app's warm-up at open is measured on
// its own line. `npx vitest bench --run bench/model-switch.bench.ts`
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { watchLoop } from './loop-probe'
import { createApp, type App } from '../src/main/app'
import { parseOpenAIMessages } from '../src/main/imports/openai-messages'
import { silentLogger } from '../src/main/logger'
import { resolveModel } from '../src/main/models/catalog'
import { freeEncoders } from '../src/main/tokens/encoders'
import { countMessage } from '../src/main/tokens/message-tokens'
import { fmtMs, goalLine } from './goal'

const N = 100_000
const dir = mkdtempSync(join(tmpdir(), 'distill-switch-bench-'))
const file = join(dir, 'switch.db')
// Keys so every model can be chosen; no request ever leaves the process.
const noNetwork = () => Promise.reject(new Error('no network in the bench'))
const env = { ANTHROPIC_API_KEY: 'x', OPENAI_API_KEY: 'y', GOOGLE_GENERATIVE_AI_API_KEY: 'z' }
const source = parseOpenAIMessages(
  readFileSync(join(__dirname, '..', 'fixtures', 'conversations', 'software-project.jsonl'), 'utf8')
)

/** Two 100,000-message GPT-4o chats (counted as the app counts them), one compressed as long chats usually are. */
async function writeChats(): Promise<{ plain: string; compressed: string }> {
  const app = createApp({ dbFile: file, mode: 'browser', log: silentLogger, env, fetch: noNetwork })
  const spec = resolveModel('openai', 'gpt-4o')!
  const counts = source.map((m) => countMessage(m, spec))
  const insert = app.database.sqlite.prepare(
    `INSERT INTO chat_messages (id, session_id, seq, role, parts, status, token_count, token_counter, created_at, part_count)
     VALUES (?, ?, ?, ?, ?, 'complete', ?, ?, ?, ?)`
  )
  const chat = (title: string) => {
    const session = app.services.sessions.create(title)
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    app.database.sqlite.transaction(() => {
      for (let i = 0; i < N; i++) {
        const m = source[i % source.length]!
        const c = counts[i % source.length]!
        insert.run(
          `${session.id}-${i}`,
          session.id,
          i + 1,
          m.role,
          JSON.stringify(m.parts),
          c.tokens,
          c.counter,
          i,
          m.parts.length
        )
      }
    })()
    return session.id
  }
  const plain = chat('plain')
  const compressed = chat('compressed')
  await app.services.compression.run(compressed, { summarizer: 'truncate', retentionOverride: 60_000 })
  await app.close()
  return { plain, compressed }
}

const chats = await writeChats()
freeEncoders()

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// Opening the app (the tokenizers load inside it, before it serves), then what runs in the background after it.
const openStart = performance.now()
const app: App = createApp({
  dbFile: file,
  mode: 'browser',
  log: silentLogger,
  env,
  fetch: noNetwork,
  warmTokenizers: true
})
const openMs = performance.now() - openStart
const openStall = watchLoop()
await pause(3000)
const openLongest = openStall()

const call = async (route: string, input: unknown) => {
  const r = await app.router.call(route as never, input as never)
  if (!r.ok) throw new Error(r.error.message)
}
const MODELS = [
  ['anthropic', 'claude-sonnet-4-5'],
  ['openai', 'gpt-4o'],
  ['google', 'gemini-2.5-pro'],
  ['anthropic', 'claude-sonnet-4-5'],
  ['openai', 'gpt-4o']
] as const
const results = new Map<string, { stall: number; slowest: number; floor: number }>()

for (const [name, sessionId] of Object.entries(chats)) {
  describe(`model switches, ${N.toLocaleString('en')}-message chat${name === 'compressed' ? ', compressed' : ''}`, () => {
    bench(
      'switch, then the meter every 30 ms for 1.5 s',
      async () => {
        await call('chat.context', { sessionId, draft: '' })
        // The machine's floor in the same minutes: the longest gap of a loop doing nothing.
        const idle = watchLoop()
        await pause(1500)
        const floor = idle()
        const done = watchLoop()
        let slowest = 0
        for (const [provider, modelId] of MODELS) {
          await call('sessions.update', { id: sessionId, provider, modelId })
          const end = performance.now() + 1500
          while (performance.now() < end) {
            const t = performance.now()
            await call('chat.context', { sessionId, draft: 'hello there' })
            slowest = Math.max(slowest, performance.now() - t)
            await pause(30)
          }
        }
        results.set(name, { stall: done(), slowest, floor })
      },
      { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
    )
  })
}

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
  const r = (name: string) => results.get(name) ?? { stall: NaN, slowest: NaN, floor: NaN }
  console.log(
    [
      '',
      `Model switches gpt-4o ⇄ Claude ⇄ Gemini on a ${N.toLocaleString('en')}-message chat, the meter asking every 30 ms`,
      `  app open: createApp ${fmtMs(openMs)}, then the longest stall in the 3 s after it ${fmtMs(openLongest)}`,
      ...Object.keys(chats).map(
        (name) =>
          `  ${name.padEnd(10)} longest stall ${fmtMs(r(name).stall)}, slowest chat.context ${fmtMs(r(name).slowest)}` +
          ` (an idle loop just before: longest gap ${fmtMs(r(name).floor)})`
      ),
      goalLine(
        'longest event-loop stall around a model switch',
        50,
        Object.keys(chats).map((name) => [name, r(name).stall] as const)
      ),
      ''
    ].join('\n')
  )
}, 60_000)
