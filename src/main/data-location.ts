import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** Where Distill keeps its data when it runs in plain Node (browser mode, CLI). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME?.trim()
  return join(xdg ? xdg : join(homedir(), '.local', 'share'), 'distill')
}

/** --db beats DISTILL_DB beats the data directory's distill.db. */
export function resolveDbFile(options: { flag?: string; env?: NodeJS.ProcessEnv; dataDir?: string }): string {
  const env = options.env ?? process.env
  return options.flag ?? (env.DISTILL_DB?.trim() || join(options.dataDir ?? defaultDataDir(env), 'distill.db'))
}

/**
 * Creates the folder of a database only the user can enter (0700). An existing folder is tightened
 * only when it is Distill's own data directory: a --db elsewhere must not change the user's folders.
 */
export function prepareDataDir(dbFile: string, env: NodeJS.ProcessEnv = process.env): void {
  const dir = dirname(resolve(dbFile))
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
  } else if (dir === resolve(defaultDataDir(env))) {
    tryChmod(dir, 0o700)
  }
}

/** The database, its -wal/-shm, lock and secrets: readable by the user only (0600). */
export function tightenDataFiles(dbFile: string): void {
  const dir = dirname(resolve(dbFile))
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}.lock`, join(dir, 'secrets.json')]) {
    if (existsSync(file)) tryChmod(file, 0o600)
  }
}

function tryChmod(path: string, mode: number): void {
  try {
    chmodSync(path, mode)
  } catch {
    // Not ours to change (another user's file, or a file system without modes).
  }
}
