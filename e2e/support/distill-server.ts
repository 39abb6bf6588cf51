import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface DistillServer {
  /** The address with the token fragment, as a person would open it. */
  url: string
  origin: string
  dbFile: string
  stop(options?: { keepData?: boolean }): Promise<void>
}

const keptDirs: Array<string | undefined> = []
process.on('exit', () => {
  for (const dir of keptDirs) if (dir) rmSync(dir, { recursive: true, force: true })
})

const ROOT = join(__dirname, '..', '..')

const PROVIDER_VARS = /^(OPENAI|ANTHROPIC|GOOGLE_GENERATIVE_AI|OPENAI_COMPATIBLE)_(API_KEY|BASE_URL)$/

function withoutProviderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !PROVIDER_VARS.test(k)))
}

/**
 * Runs the real browser-mode server (`distill serve`, the built bundle) on a fresh database and
 * waits for the address it prints.
 */
export async function startDistill(options: { dbFile?: string; env?: Record<string, string> } = {}): Promise<DistillServer> {
  const dir = options.dbFile ? undefined : mkdtempSync(join(tmpdir(), 'distill-e2e-'))
  const dbFile = options.dbFile ?? join(dir!, 'distill.db')
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'out', 'main', 'cli.js'), '--db', dbFile, 'serve', '--port', '0'], {
    cwd: ROOT,
    // Never the developer's real keys: only what the test passes.
    env: { ...withoutProviderEnv(process.env), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`distill serve did not start:\n${stderr}`)), 20_000)
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
  })
  return {
    url,
    origin: new URL(url).origin,
    dbFile,
    stop: async (options: { keepData?: boolean } = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      // The database outlives the server when a test restarts it; the fixture removes it afterwards.
      if (dir && !options.keepData) rmSync(dir, { recursive: true, force: true })
      if (options.keepData) keptDirs.push(dir)
    }
  }
}
