// What door-stall.bench.ts needs to reach the server as a user does: the fake provider and
// `npx distill serve` in processes of their own, a database seeded before the server opens it, the
// server's RPC routes and event stream, and a second client (door-pinger.mjs) timing a cheap route.
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { resolveModel } from '../src/main/models/catalog'
import { countMessage } from '../src/main/tokens/message-tokens'
import type { ChatMessage } from '../src/shared/domain/chat-message'
import { storeMessages } from './stored-chat'

const ROOT = join(__dirname, '..')

/** Ends a child's whole process group (npx runs the server under npm and a shell); false once none is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}
async function stopGroup(pid: number, graceMs = 15_000): Promise<void> {
  signalGroup(pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (signalGroup(pid, 0)) {
    if (Date.now() > deadline) signalGroup(pid, 'SIGKILL')
    await new Promise((r) => setTimeout(r, 50))
  }
}
const started = new Set<number>()
process.on('exit', () => {
  for (const pid of started) signalGroup(pid, 'SIGKILL')
})

/** Spawns a child in its own process group and resolves with the first match of `pattern` in its stdout. */
function startChild(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  timeoutMs: number
): Promise<{ pid: number; match: RegExpExecArray }> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const pid = child.pid!
  started.add(pid)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += String(d)))
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      signalGroup(pid, 'SIGKILL')
      started.delete(pid)
      reject(new Error(`${name} ${why}:\n${(out + err).trim().slice(-2000)}`))
    }
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs / 1000} s`), timeoutMs)
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d)
      const match = pattern.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve({ pid, match })
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(`exited (${code}) before it was ready`)
    })
  })
}

/** No key or address of the developer's own reaches the server: only the fake provider's. */
const PROVIDER_VARS = /^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|OPENAI_COMPATIBLE)_(API_KEY|BASE_URL)$/
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !PROVIDER_VARS.test(k)))

export interface FakeProcess {
  openai: string
  anthropic: string
  stop(): Promise<void>
}

/** The project's fake provider (e2e/fake-provider/cli.ts) in its own process. */
export async function startFakeProcess(): Promise<FakeProcess> {
  const { pid, match } = await startChild(
    'the fake provider',
    process.execPath,
    [
      join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(ROOT, 'e2e', 'fake-provider', 'cli.ts'),
      '--port',
      '0',
      '--quiet'
    ],
    cleanEnv(),
    /OPENAI_BASE_URL=(\S+)\s+ANTHROPIC_BASE_URL=(\S+)/,
    60_000
  )
  return {
    openai: match[1]!,
    anthropic: match[2]!,
    stop: async () => {
      await stopGroup(pid)
      started.delete(pid)
    }
  }
}

export interface SeededChats {
  /** 100,000 messages on GPT-4o. */
  big: string
  /** Two chats of 10,000 messages on GPT-4o, never compressed: one per compression measured. */
  tenK: [string, string]
}

/**
 * Writes the chats into `dbFile` before any server opens it: real conversation text, counted for
 * GPT-4o as the app counts it, written as `distill import` writes (see stored-chat.ts).
 */
export async function seedDatabase(dbFile: string): Promise<SeededChats> {
  const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
  const spec = resolveModel('openai', 'gpt-4o')!
  const counted = new Map<unknown, { tokens: number; counter: string }>()
  const count = (m: Pick<ChatMessage, 'role' | 'parts'>) => {
    let c = counted.get(m)
    if (!c) counted.set(m, (c = countMessage(m, spec)))
    return c
  }
  const chat = (title: string, n: number, shift: number) => {
    const session = app.services.sessions.create(title)
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    storeMessages(app, session.id, n, { shift, count })
    return session.id
  }
  const seeded: SeededChats = {
    big: chat('100k messages', 100_000, 0),
    tenK: [chat('10k messages, first', 10_000, 3), chat('10k messages, second', 10_000, 5)]
  }
  await app.close()
  return seeded
}

/**
 * `chars` characters of the real conversation the chats are seeded with (its messages' text one
 * after another, again from the start as often as it takes): a long paste of prose and code, with
 * words Recall can search for.
 */
export function conversationText(chars: number): string {
  const texts = readFileSync(join(ROOT, 'fixtures', 'conversations', 'software-project.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { content: string }).content)
  const one = texts.join('\n\n')
  return one.repeat(Math.ceil(chars / one.length)).slice(0, chars)
}

export interface Rpc {
  call<T = unknown>(route: string, input?: unknown): Promise<T>
}

export interface Served extends Rpc {
  origin: string
  token: string
  /** Resolves with the first event (as the event stream sends it) that `match` accepts. */
  event<T>(match: (e: { event: string; payload: T }) => boolean, timeoutMs: number): Promise<T>
  stop(): Promise<void>
}

/**
 * `npx distill serve` as the README runs it (it builds the app first when the build is older than
 * the sources), on `dbFile`, with the fake provider's addresses and keys in its environment. With
 * `cpuProfDir` it is `node --cpu-prof bin/distill.cjs serve`, what npx runs (Node refuses the flag
 * in NODE_OPTIONS): each thread writes its profile there when the server stops.
 */
export async function startServe(dbFile: string, fake: FakeProcess, cpuProfDir?: string): Promise<Served> {
  const env = {
    ...cleanEnv(),
    OPENAI_API_KEY: 'sk-bench-fake',
    OPENAI_BASE_URL: fake.openai,
    ANTHROPIC_API_KEY: 'sk-ant-bench-fake',
    ANTHROPIC_BASE_URL: fake.anthropic,
    DISTILL_NO_UPDATE_CHECK: '1'
  }
  const command = ['distill', '--db', dbFile, 'serve', '--port', '0']
  const { pid, match } = await startChild(
    'distill serve',
    cpuProfDir ? process.execPath : 'npx',
    cpuProfDir
      ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, join(ROOT, 'bin', 'distill.cjs'), ...command.slice(1)]
      : ['--no-install', ...command],
    env,
    /Distill is running at (http:\/\/[^/\s#]+)\/?#token=(\S+)/,
    600_000
  )
  const origin = match[1]!
  const token = match[2]!
  const call = async <T>(route: string, input: unknown = {}): Promise<T> => {
    const res = await fetch(`${origin}/rpc/${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(input)
    })
    const answer = (await res.json()) as { ok: true; data: T } | { ok: false; error: { message: string } }
    if (!answer.ok) throw new Error(`${route}: ${answer.error.message}`)
    return answer.data
  }

  // One event stream, as the page keeps one; waiters look at every event that arrives.
  const waiters = new Set<(e: { event: string; payload: unknown }) => void>()
  const stream = new AbortController()
  const res = await fetch(`${origin}/events`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: stream.signal
  })
  void (async () => {
    const decoder = new TextDecoder()
    let buffered = ''
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          if (!block.startsWith('data: ')) continue
          const e = JSON.parse(block.slice(6)) as { event: string; payload: unknown }
          for (const waiter of [...waiters]) waiter(e)
        }
      }
    } catch {
      // Aborted at stop.
    }
  })()
  const event = <T>(match: (e: { event: string; payload: T }) => boolean, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter)
        reject(new Error(`no such event within ${timeoutMs / 1000} s`))
      }, timeoutMs)
      const waiter = (e: { event: string; payload: unknown }) => {
        if (!match(e as { event: string; payload: T })) return
        clearTimeout(timer)
        waiters.delete(waiter)
        resolve(e.payload as T)
      }
      waiters.add(waiter)
    })

  return {
    origin,
    token,
    call,
    event,
    stop: async () => {
      stream.abort()
      await stopGroup(pid)
      started.delete(pid)
    }
  }
}

export interface PingFigures {
  /** Answers received in the window. */
  count: number
  failed: number
  /** The longest round trip, from when the ping was due to its answer (ms). */
  max: number
  over50: number
  p50: number
  p99: number
}

export interface Pinger {
  /** Pings while `work` runs (and `tailMs` after it, for what it leaves running), then gives the figures. */
  during<T>(work: () => Promise<T>, tailMs?: number): Promise<{ result: T; pings: PingFigures }>
  close(): void
}

/** The second client: door-pinger.mjs in its own process, asking settings.get every 5 ms. */
export async function startPinger(served: Served): Promise<Pinger> {
  const child = fork(join(__dirname, 'door-pinger.mjs'), [served.origin, served.token], { stdio: 'inherit' })
  let exited: ((code: number | null) => void) | undefined
  child.on('exit', (code) => exited?.(code))
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      exited = (code) => reject(new Error(`the pinger exited (${code})`))
      child.once('message', resolve)
    })
  await next()
  return {
    async during(work, tailMs = 1000) {
      const stop = async () => {
        const figures = next()
        child.send({ cmd: 'stop' })
        return (await figures) as PingFigures
      }
      child.send({ cmd: 'start' })
      let result
      try {
        result = await work()
      } catch (err) {
        await stop()
        throw err
      }
      await new Promise((r) => setTimeout(r, tailMs))
      return { result, pings: await stop() }
    },
    close() {
      child.send({ cmd: 'exit' })
    }
  }
}
