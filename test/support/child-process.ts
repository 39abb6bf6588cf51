import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { join } from 'node:path'

export const ROOT = join(__dirname, '..', '..')

export interface TsChild {
  child: ChildProcess
  /** Resolves with the first stdout line starting with `prefix` (its words after the prefix). */
  line(prefix: string): Promise<string[]>
  stderr(): string
  /** Resolves with the exit code (null when killed) once the child is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Runs a TypeScript file of the project in a real child process. tsx runs as a loader in that very
 * process: its CLI would run the script in a grandchild that SIGKILL could not reach.
 */
export function spawnTs(script: string, args: string[], options: Pick<SpawnOptions, 'uid' | 'gid'> = {}): TsChild {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS')
  )
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options
  })
  let stdout = ''
  let stderr = ''
  const waiters: Array<{ prefix: string; resolve: (words: string[]) => void }> = []
  const check = () => {
    for (const line of stdout.split('\n').slice(0, -1)) {
      for (const w of [...waiters]) {
        if (line.startsWith(w.prefix)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line.slice(w.prefix.length).trim().split(' ').filter(Boolean))
        }
      }
    }
  }
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString()
    check()
  })
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal }))
  )
  return {
    child,
    stderr: () => stderr,
    exited,
    line: (prefix) =>
      new Promise((resolve, reject) => {
        waiters.push({ prefix, resolve })
        check()
        void exited.then(({ code, signal }) =>
          reject(new Error(`child exited (${code ?? signal}) before "${prefix}":\n${stderr}`))
        )
      })
  }
}
