import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Command } from 'commander'
import { createApp, type App } from '../app'
import { resolveDbFile } from '../data-location'
import { createConsoleLogger } from '../logger'
import { databaseError } from '../services/database-errors'

export interface OpenOptions {
  /** Commands that only look open the file read-only: they work while the app owns it. */
  readOnly?: boolean
  /** The subcommand, so a second process reads "open in Distill (distill import, …)". */
  command?: string
}

async function run<T>(app: App, work: (app: App) => Promise<T>): Promise<T> {
  try {
    return await work(app)
  } catch (err) {
    throw databaseError(err) ?? err
  } finally {
    await app.close()
  }
}

/** The app over the database --db names (or the default), for commands that work on saved chats. */
export async function withApp<T>(
  program: Command,
  work: (app: App) => Promise<T>,
  options: OpenOptions = {}
): Promise<T> {
  const app = createApp({
    dbFile: resolveDbFile({ flag: program.opts<{ db?: string }>().db }),
    mode: 'browser',
    access: options.readOnly ? 'read-only' : 'owner',
    command: `${program.name()}${options.command ? ` ${options.command}` : ''}`,
    log: createConsoleLogger(true)
  })
  return run(app, work)
}

/** --db if given, else a throwaway database removed afterwards (replay must not touch real chats). */
export async function withScratchApp<T>(db: string | undefined, work: (app: App) => Promise<T>): Promise<T> {
  const dir = db ? undefined : mkdtempSync(join(tmpdir(), 'distill-replay-'))
  try {
    const app = createApp({
      dbFile: db ?? join(dir!, 'replay.db'),
      mode: 'browser',
      command: 'distill replay',
      log: createConsoleLogger(true)
    })
    return await run(app, work)
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}

export function print(json: boolean | undefined, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`)
}
