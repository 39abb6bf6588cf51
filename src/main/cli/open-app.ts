import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Command } from 'commander'
import { createApp, type App } from '../app'
import { resolveDbFile } from '../data-location'
import { createConsoleLogger } from '../logger'

/** The app over the database --db names (or the default), for commands that work on saved chats. */
export async function withApp<T>(program: Command, work: (app: App) => Promise<T>): Promise<T> {
  const app = createApp({ dbFile: resolveDbFile({ flag: program.opts<{ db?: string }>().db }), mode: 'browser', log: createConsoleLogger(true) })
  try {
    return await work(app)
  } finally {
    await app.close()
  }
}

/** --db if given, else a throwaway database removed afterwards (replay must not touch real chats). */
export async function withScratchApp<T>(db: string | undefined, work: (app: App) => Promise<T>): Promise<T> {
  const dir = db ? undefined : mkdtempSync(join(tmpdir(), 'distill-replay-'))
  const app = createApp({ dbFile: db ?? join(dir!, 'replay.db'), mode: 'browser', log: createConsoleLogger(true) })
  try {
    return await work(app)
  } finally {
    await app.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

export function print(json: boolean | undefined, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`)
}
