import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { resolveDbFile } from '../data-location'

/**
 * `--db FILE` or `--db=FILE` anywhere on the command line (Electron puts its own and Chromium's
 * switches around ours). The last one wins; a dangling `--db` is ignored.
 */
export function dbFlagFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') break
    if (arg === '--db') {
      const next = argv[i + 1]
      if (next !== undefined && next !== '' && !next.startsWith('--')) {
        found = next
        i++
      }
    } else if (arg.startsWith('--db=') && arg.length > 5) {
      found = arg.slice(5)
    }
  }
  return found
}

export interface ShellLocation {
  /** The SQLite file Distill opens. */
  dbFile: string
  /**
   * Chromium's profile directory (and with it the single-instance lock). Each explicitly chosen
   * database gets its own, so one instance runs per database and test runs with temporary
   * databases do not fight over the default profile.
   */
  userData: string
}

/** --db beats DISTILL_DB beats userData/distill.db. */
export function resolveShellLocation(options: {
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  defaultUserData: string
  cwd?: string
}): ShellLocation {
  const flag = dbFlagFromArgv(options.argv)
  const explicit = flag ?? (options.env.DISTILL_DB?.trim() || undefined)
  if (!explicit) {
    return { dbFile: resolveDbFile({ env: {}, dataDir: options.defaultUserData }), userData: options.defaultUserData }
  }
  const dbFile = explicit === ':memory:' ? explicit : resolve(options.cwd ?? process.cwd(), explicit)
  const profile = createHash('sha256').update(dbFile).digest('hex').slice(0, 16)
  return { dbFile, userData: join(options.defaultUserData, 'profiles', profile) }
}
