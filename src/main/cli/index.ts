import { Command } from 'commander'
import { version } from '../../../package.json'
import { DatabaseOpenError } from '../db/client'
import { ImportError } from '../imports/openai-messages'
import { AppError } from '../../shared/app-error'
import { registerChatCommands } from './chat-commands'
import { registerCount } from './count-command'
import { registerExport } from './export-command'
import { registerReplay } from './replay-command'
import { registerServe } from './serve-command'

/** `distill`: browser mode and the command-line tools, sharing app.ts with the desktop app. */
export function buildProgram(): Command {
  const program = new Command()
    .name('distill')
    .description('Distill: chats that never run out of context')
    .version(version)
    .option('--db <file>', 'the database file (default: $DISTILL_DB or the data directory)')
  registerServe(program)
  registerCount(program)
  registerReplay(program)
  registerChatCommands(program)
  registerExport(program)
  return program
}

/** Runs the command line; `bin/distill.cjs` (the documented `npx distill`) calls this. */
export async function main(argv: readonly string[]): Promise<void> {
  // `distill … | head` closes the pipe before everything is written: stop quietly, as other tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err
      process.exit(0)
    })
  }
  try {
    await buildProgram().parseAsync([...argv])
  } catch (err) {
    const known = err instanceof DatabaseOpenError || err instanceof ImportError || err instanceof AppError
    process.stderr.write(`distill: ${(err as Error).message}\n`)
    // Unexpected failures keep their stack for bug reports.
    if (!known && process.env.DISTILL_DEBUG) process.stderr.write(`${(err as Error).stack}\n`)
    process.exit(1)
  }
}

// `node out/main/cli.js …` (npm start's browser-mode fallback) runs it directly.
if (require.main === module) void main(process.argv)
