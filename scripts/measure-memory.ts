/**
 * The browser-mode server's memory (RSS) while working on a large database: 1M messages over 5,000
 * chats, one of them 100,000 messages long and one 10,000. A measurement, not a test: it prints
 * each phase's peak and the goal line, and asserts nothing.
 *
 *   npx electron-vite build && npx tsx scripts/measure-memory.ts [--phase NAME]…
 *
 * The database is built once (in a child process) and kept in the system's temp folder; phases that
 * write undo what they did. The server runs as `npm start` runs it (`distill serve`, the built app, its V8 flags) and
 * is driven over HTTP with the renderer's requests. Each phase's peak is the kernel's high-water
 * mark of the server's RSS (Linux: /proc/PID/status VmHWM, reset between phases through
 * clear_refs), so a short spike between two samples is not missed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storeMessages } from '../bench/stored-chat'
import { SERVER_V8_FLAGS } from './lib/server-flags.mjs'
import { createApp, type App } from '../src/main/app'
import { updateSession } from '../src/main/db/repositories/sessions-repo'
import { silentLogger } from '../src/main/logger'
import { countMessage } from '../src/main/tokens/message-tokens'
import type { RouteInput, RouteName } from '../src/shared/contract'
import type { RpcResult } from '../src/shared/contract/define'

const GOAL_MB = 250
const CHATS = 5_000
const TOTAL = 1_000_000
const LONG = 100_000
const MEDIUM = 10_000
const CLAUDE = 'claude-sonnet-4-5'

const argv = process.argv.slice(2)
const only = argv.flatMap((a, i) => (a === '--phase' && argv[i + 1] ? [argv[i + 1]!] : []))
const ROOT = join(__dirname, '..')
const dir = join(tmpdir(), 'distill-memory-bench')
const dbFile = join(dir, `chats-${CHATS}-${TOTAL}.db`)

const open = (file: string): App =>
  createApp({ dbFile: file, mode: 'browser', log: silentLogger, env: {}, summaryThread: true })

/** The database: the long chat, the 10k chat, and the other chats sharing the rest, a year of activity. */
function build(): void {
  const building = `${dbFile}.building`
  rmSync(building, { force: true })
  const app = open(building)
  app.services.settings.update({ summarizer: 'extractive' })
  const spec = app.services.models.spec('openai', 'gpt-4o')
  const count = (m: Parameters<typeof countMessage>[0]) => countMessage(m, spec)
  const rest = Math.floor((TOTAL - LONG - MEDIUM) / (CHATS - 2))
  for (let c = 0; c < CHATS; c++) {
    const title = c === CHATS - 1 ? 'Long chat' : c === CHATS - 2 ? 'Medium chat' : `Chat ${c}`
    const session = app.services.sessions.create(title)
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    const n = c === CHATS - 1 ? LONG : c === CHATS - 2 ? MEDIUM : rest
    app.database.db.transaction((tx) => {
      // The two chats the measurement opens are counted as the app counts them.
      storeMessages(app, session.id, n, { shift: c, tx, count: n === rest ? undefined : count })
      updateSession(tx, session.id, { updatedAt: 1_700_000_000_000 + c * 6_000_000 })
    })
    if (c % 500 === 0) process.stdout.write(`  built ${c} of ${CHATS} chats\n`)
  }
  void app.close().then(() => renameSync(building, dbFile))
}

if (argv.includes('--build')) {
  build()
} else {
  if (!existsSync(dbFile)) {
    mkdirSync(dir, { recursive: true })
    console.log(`Building ${dbFile} (once)…`)
    execFileSync(process.execPath, [...process.execArgv, __filename, '--build'], { stdio: 'inherit' })
  }
  void measure()
}

async function measure(): Promise<void> {
  // With the V8 flags `npm start` gives the server (scripts/lib/server-flags.mjs).
  const server = spawn(
    process.execPath,
    [...SERVER_V8_FLAGS, join(ROOT, 'bin', 'distill.cjs'), '--db', dbFile, 'serve', '--port', '0'],
    {
      cwd: ROOT,
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_(API_KEY|BASE_URL)$/.test(k))),
      stdio: ['ignore', 'pipe', 'inherit']
    }
  )
  const address = await new Promise<URL>((resolve, reject) => {
    let out = ''
    server.stdout.on('data', (chunk: Buffer) => {
      out += String(chunk)
      const m = /(http:\/\/\S+)/.exec(out)
      if (m) resolve(new URL(m[1]!))
    })
    server.on('exit', (code) => reject(new Error(`distill serve exited (${code})`)))
  })
  try {
    await measureOn(server, address)
  } finally {
    server.kill()
  }
}

async function measureOn(server: ChildProcess, address: URL): Promise<void> {
  const MB = 1024 * 1024
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`
  const token = new URLSearchParams(address.hash.slice(1)).get('token')!
  /** The server's resident memory now (VmRSS) or its peak since the last reset (VmHWM), in bytes. */
  const status = (field: 'VmRSS' | 'VmHWM') =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) * 1024
  // Writing 5 to clear_refs sets the peak back to the current RSS (Linux), so each phase has its own.
  const resetPeak = () => writeFileSync(`/proc/${server.pid}/clear_refs`, '5')

  /** A request as the renderer sends it. */
  async function call<R extends RouteName>(route: R, input: RouteInput<R>): Promise<unknown> {
    const response = await fetch(new URL(`/rpc/${route}`, address.origin), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(input)
    })
    const result = (await response.json()) as RpcResult<unknown>
    if (!result.ok) throw new Error(`${route}: ${result.error.message}`)
    return result.data
  }
  const idOf = async (title: string) =>
    ((await call('sessions.list', { query: title, limit: 1 })) as { sessions: Array<{ id: string }> }).sessions[0]!.id
  const long = await idOf('Long chat')
  const medium = await idOf('Medium chat')
  // A run stopped half way may have left the 10k chat compressed: back to its uncompressed state.
  while (((await call('compression.active', { sessionId: medium })) as { summary: unknown }).summary)
    await call('compression.undo', { sessionId: medium })

  /** Opening a chat: what the renderer asks for when one is clicked. */
  async function openChat(sessionId: string): Promise<void> {
    await call('sessions.get', { id: sessionId })
    await call('chat.messages', { sessionId })
    await call('chat.context', { sessionId })
    await call('compression.active', { sessionId })
    await call('history.list', { sessionId })
  }

  const phases: Array<[string, () => Promise<void>]> = [
    ['server started on 1M messages, 5,000 chats', async () => {}],
    [
      'sidebar: first page, then every page',
      async () => {
        let cursor: string | null | undefined
        do {
          const page = (await call('sessions.list', cursor ? { cursor } : {})) as { nextCursor: string | null }
          cursor = page.nextCursor
        } while (cursor)
      }
    ],
    ['open the 100k chat', () => openChat(long)],
    [
      'typing in the 100k chat (context per keystroke, recall plan)',
      async () => {
        const draft = 'How did we settle the retry policy?'
        for (let i = 1; i <= draft.length; i++)
          await call('chat.context', { sessionId: long, draft: draft.slice(0, i) })
        await call('chat.context', { sessionId: long, draft, recall: true })
      }
    ],
    [
      'search across chats, then in the 100k chat',
      async () => {
        for (const query of ['the', 'retry policy', 'database migration', 'zzzz'])
          await call('sessions.search', { query })
        for (const query of ['the', 'retry', 'migration']) await call('history.search', { sessionId: long, query })
      }
    ],
    [
      `model switches gpt-4o ⇄ ${CLAUDE} (100k chat)`,
      async () => {
        for (let i = 0; i < 3; i++) {
          for (const [provider, modelId] of [
            ['anthropic', CLAUDE],
            ['openai', 'gpt-4o']
          ] as const) {
            await call('sessions.update', { id: long, provider, modelId })
            await call('chat.context', { sessionId: long })
            await call('chat.context', { sessionId: long, draft: 'And the timeouts?' })
          }
        }
      }
    ],
    [
      // The summary thread's own cost: started, loaded, given almost nothing to do.
      'compress a small chat (178 messages), then undo',
      async () => {
        const small = await idOf('Chat 17')
        await openChat(small)
        await call('compression.run', { sessionId: small, summarizer: 'extractive' })
        await call('compression.undo', { sessionId: small })
      }
    ],
    [
      'compress the 10k chat (extractive), then undo',
      async () => {
        await openChat(medium)
        await call('compression.run', { sessionId: medium, summarizer: 'extractive' })
        await call('chat.context', { sessionId: medium })
        // The database stays as built, for the next run.
        await call('compression.undo', { sessionId: medium })
      }
    ]
  ]

  const rows: Array<[string, number, number]> = []
  for (const [name, run] of phases) {
    if (only.length && !only.some((o) => name.includes(o)) && !name.startsWith('server started')) continue
    if (rows.length > 0) resetPeak()
    const t0 = performance.now()
    await run()
    await new Promise((resolve) => setTimeout(resolve, 200))
    rows.push([name, status('VmHWM'), performance.now() - t0])
  }

  // The summary thread ends once idle (IDLE_MS in extractive-thread.ts): what stays resident after.
  await new Promise((resolve) => setTimeout(resolve, 25_000))
  const settled = status('VmRSS')

  const width = Math.max(...rows.map(([n]) => n.length))
  const worst = Math.max(...rows.map(([, p]) => p))
  console.log(
    [
      '',
      'Browser-mode server (`distill serve`) RSS: the peak of each phase (VmHWM, reset between phases)',
      ...rows.map(([n, p, ms]) => `  ${n.padEnd(width)} ${mb(p).padStart(8)}   (${(ms / 1000).toFixed(1)} s)`),
      `  ${'25 s later (resident now, the summary thread ended)'.padEnd(width)} ${mb(settled).padStart(8)}`,
      `  Goal RSS < ${GOAL_MB} MB at any time: ${worst < GOAL_MB * MB ? 'met' : `NOT met (peak ${mb(worst)})`}`,
      ''
    ].join('\n')
  )
}
