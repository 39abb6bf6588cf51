import { homedir } from 'node:os'
import { join } from 'node:path'

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
