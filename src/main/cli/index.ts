import { Command } from 'commander'
import { version } from '../../../package.json'
import { DatabaseOpenError } from '../db/client'
import { ImportError } from '../importers/openai-messages'
import { registerCount } from './count-command'
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
  return program
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      const message = err instanceof DatabaseOpenError || err instanceof ImportError ? err.message : `distill: ${(err as Error).message}`
      process.stderr.write(`${message}\n`)
      process.exit(1)
    })
}
