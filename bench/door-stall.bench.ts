// Stalls as the user meets them: a late answer from the server. The real server (`npx distill
// serve`, the fake provider as its OpenAI and Anthropic) on a database seeded before it starts; a
// second client in a process of its own asks a cheap route (settings.get) every 5 ms while the first
// one (a) sends a message of 500,000 lines, twice (the first after opening, then another), (b)
// compresses a 10,000-message chat (with the model summary, the default, and with the offline one),
// (c) switches a 100,000-message chat from GPT-4o to Claude (another tokenizer: the chat is
// recounted in the background; the meter asks chat.context every 250 ms until the recount ends),
// (d) pastes a 1,000,000-character draft into a compressed 10,000-message chat: the meter asks
// chat.context with the draft, then with Recall as typing pauses,
// as the renderer's usage store does. Each row gives the longest round trip and the pings over
// 50 ms; the baseline is the same pinging with nothing running, in the same run.
// `npx vitest bench --run bench/door-stall.bench.ts`; with DISTILL_BENCH_CPU_PROF=DIR the server
// runs under `node --cpu-prof` and writes its threads' profiles into DIR when it stops.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { MAX_MESSAGE_CHARS } from '../src/shared/domain/chat-message'
import { conversationText, seedDatabase, startFakeProcess, startPinger, startServe, type PingFigures } from './door'
import { fmtMs, goalLine } from './goal'

const GOAL_MS = 50
const once = { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const dir = mkdtempSync(join(tmpdir(), 'distill-door-bench-'))
const dbFile = join(dir, 'distill.db')
const seedStart = performance.now()
const chats = await seedDatabase(dbFile)
const seedMs = performance.now() - seedStart
const fake = await startFakeProcess()
const profileDir = process.env.DISTILL_BENCH_CPU_PROF
/** A server that does not start leaves nothing running behind it (no afterAll is registered yet). */
async function orCleanUp<T>(start: Promise<T>, stop: () => Promise<void>): Promise<T> {
  try {
    return await start
  } catch (err) {
    await stop()
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
}
const served = await orCleanUp(startServe(dbFile, fake, profileDir), () => fake.stop())
const pinger = await orCleanUp(startPinger(served), async () => {
  await served.stop()
  await fake.stop()
})
// The server prepares its newest chat and loads the tokenizers as it opens: let that pass first.
await sleep(3000)

interface Row {
  label: string
  pings: PingFigures
  workMs: number
  /** The window on the monotonic clock (µs), as the server's CPU profile times its samples. */
  window: [number, number]
}
const rows: Row[] = []
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)

async function measure(label: string, work: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now()
  const from = monotonicUs()
  let workMs = NaN
  const { pings } = await pinger.during(async () => {
    await work()
    workMs = performance.now() - t0
  })
  rows.push({ label, pings, workMs, window: [from, monotonicUs()] })
}

interface Message {
  id: string
  sessionId: string
  role: string
  status: string
}
/** The reply of `sessionId` once it stops streaming (the chat.message event the page gets). */
const replyDone = (sessionId: string) =>
  served.event<{ message: Message }>(
    (e) =>
      e.event === 'chat.message' &&
      e.payload.message.sessionId === sessionId &&
      e.payload.message.role === 'assistant' &&
      e.payload.message.status !== 'streaming',
    300_000
  )

describe('answers from the server while it works (settings.get every 5 ms from a second client)', () => {
  bench(
    'nothing running, 5 s (baseline)',
    async () => measure('nothing running, 5 s (baseline)', () => sleep(5000)),
    once
  )

  // The first long message after opening (the database thread starts for it), then another one.
  for (const [name, label] of [
    ['chat.send of a 500,000-line message', 'chat.send, a message of 500,000 lines, until its reply'],
    ['chat.send of a 500,000-line message, again', 'chat.send, 500,000 lines again, in a new chat']
  ] as const) {
    bench(
      name,
      async () => {
        const { id } = await served.call<{ id: string }>('sessions.create', {})
        const text = 'a\n'.repeat(MAX_MESSAGE_CHARS / 2)
        await measure(label, async () => {
          const done = replyDone(id)
          await served.call('chat.send', { sessionId: id, text })
          await done
        })
      },
      once
    )
  }

  bench(
    'compression.run, 10,000 messages, model summary',
    async () =>
      measure('compression.run, 10,000 messages, model summary (default)', () =>
        served.call('compression.run', { sessionId: chats.tenK[0] })
      ),
    once
  )

  bench(
    'compression.run, 10,000 messages, extractive',
    async () =>
      measure('compression.run, 10,000 messages, extractive', () =>
        served.call('compression.run', { sessionId: chats.tenK[1], summarizer: 'extractive' })
      ),
    once
  )

  bench(
    'chat.context, a 1,000,000-character draft, with Recall',
    async () => {
      // The chat compressed above has a summary, so Recall searches what it holds. The meter reads
      // the chat as it is opened, before the paste.
      const sessionId = chats.tenK[0]
      await served.call('chat.context', { sessionId })
      const draft = conversationText(MAX_MESSAGE_CHARS)
      await measure('chat.context, a 1,000,000-character draft, then with Recall', async () => {
        await served.call('chat.context', { sessionId, draft })
        await served.call('chat.context', { sessionId, draft, recall: true })
      })
    },
    once
  )

  bench(
    'model switch, 100,000 messages',
    async () => {
      // The chat is open, as it is when its model is changed.
      await served.call('chat.context', { sessionId: chats.big, draft: '' })
      await measure('sessions.update GPT-4o → Claude, 100,000 messages, until recounted', async () => {
        await served.call('sessions.update', { id: chats.big, provider: 'anthropic', modelId: 'claude-sonnet-4-5' })
        const deadline = performance.now() + 300_000
        while (performance.now() < deadline) {
          const usage = await served.call<{ recounting: boolean }>('chat.context', { sessionId: chats.big, draft: '' })
          if (!usage.recounting) return
          await sleep(250)
        }
        throw new Error('the recount did not end within 5 minutes')
      })
    },
    once
  )

  bench(
    'nothing running, 5 s, at the end',
    async () => measure('nothing running, 5 s, again at the end (baseline)', () => sleep(5000)),
    once
  )
})

afterAll(async () => {
  pinger.close()
  await served.stop()
  await fake.stop()
  rmSync(dir, { recursive: true, force: true })
  const width = Math.max(...rows.map((r) => r.label.length)) + 2
  console.log(
    [
      '',
      `Answers from \`distill serve\` while it works: settings.get every 5 ms from a second client, timed from when each was due`,
      `(database of 100,000 + 2 × 10,000 messages seeded in ${fmtMs(seedMs)} before the server started; each window ends 1 s after the work)`,
      `  ${'work'.padEnd(width)} ${'took'.padStart(9)} ${'pings'.padStart(6)} ${'median'.padStart(9)} ${'p99'.padStart(9)} ${'longest'.padStart(9)} ${'> 50 ms'.padStart(8)}`,
      ...rows.map(
        (r) =>
          `  ${r.label.padEnd(width)} ${fmtMs(r.workMs).padStart(9)} ${String(r.pings.count).padStart(6)} ${fmtMs(r.pings.p50).padStart(9)} ${fmtMs(r.pings.p99).padStart(9)} ${fmtMs(r.pings.max).padStart(9)} ${String(r.pings.over50).padStart(8)}` +
          (r.pings.failed ? `  (${r.pings.failed} failed)` : '')
      ),
      ...(profileDir
        ? [
            `  CPU profiles in ${profileDir}; the windows on their clock (µs): ${JSON.stringify(rows.map((r) => [r.label, ...r.window]))}`
          ]
        : []),
      goalLine(
        'longest answer to a ping',
        GOAL_MS,
        rows.map((r) => [r.label, r.pings.max] as const)
      ),
      ''
    ].join('\n')
  )
}, 60_000)
