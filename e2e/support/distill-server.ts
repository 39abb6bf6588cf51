import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface DistillServer {
  /** The address with the token fragment, as a person would open it. */
  url: string
  origin: string
  dbFile: string
  /** The process group of `npx distill serve`: npm, its shell and the server itself. */
  processGroup: number
  stop(options?: { keepData?: boolean }): Promise<void>
}

const keptDirs: Array<string | undefined> = []
const runningGroups = new Set<number>()
process.on('exit', () => {
  // A run that ends abruptly must not leave servers behind.
  for (const group of runningGroups) signalGroup(group, 'SIGKILL')
  for (const dir of keptDirs) if (dir) rmSync(dir, { recursive: true, force: true })
})

/** false once no process of the group is left. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal)
    return true
  } catch {
    return false
  }
}

/** Resolves when every process of the group has exited; SIGKILL after `graceMs`. */
async function groupGone(group: number, graceMs = 10_000): Promise<void> {
  const deadline = Date.now() + graceMs
  while (signalGroup(group, 0)) {
    if (Date.now() > deadline) signalGroup(group, 'SIGKILL')
    await new Promise((r) => setTimeout(r, 25))
  }
}

const ROOT = join(__dirname, '..', '..')

const PROVIDER_VARS = /^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|OPENAI_COMPATIBLE)_(API_KEY|BASE_URL)$/

function withoutProviderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !PROVIDER_VARS.test(k)))
}

/**
 * Runs the real browser-mode server the way the README says (`npx distill serve`, in the project
 * root) on a fresh database and waits for the address it prints.
 */
export async function startDistill(
  options: { dbFile?: string; env?: Record<string, string> } = {}
): Promise<DistillServer> {
  const dir = options.dbFile ? undefined : mkdtempSync(join(tmpdir(), 'distill-e2e-'))
  const dbFile = options.dbFile ?? join(dir!, 'distill.db')
  const child: ChildProcess = spawn('npx', ['--no-install', 'distill', '--db', dbFile, 'serve', '--port', '0'], {
    cwd: ROOT,
    // Its own process group: npm runs the command through a shell, so stopping npm alone would
    // orphan the server; the whole group is stopped instead.
    detached: true,
    // Never the developer's real keys: only what the test passes.
    env: { ...withoutProviderEnv(process.env), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const group = child.pid!
  runningGroups.add(group)
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`distill serve did not start:\n${stderr}`)), 60_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const match = /Distill is running at (\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`distill serve exited with ${code}:\n${stderr}`))
    })
  }).catch(async (err: unknown) => {
    signalGroup(group, 'SIGKILL')
    await groupGone(group)
    runningGroups.delete(group)
    throw err
  })
  return {
    url,
    origin: new URL(url).origin,
    dbFile,
    processGroup: group,
    stop: async (options: { keepData?: boolean } = {}) => {
      // SIGTERM reaches the server itself, which closes the database before it exits.
      signalGroup(group, 'SIGTERM')
      await groupGone(group)
      runningGroups.delete(group)
      // The database outlives the server when a test restarts it; the fixture removes it afterwards.
      if (dir && !options.keepData) rmSync(dir, { recursive: true, force: true })
      if (options.keepData) keptDirs.push(dir)
    }
  }
}
