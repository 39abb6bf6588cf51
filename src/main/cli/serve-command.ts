import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { startBrowserMode } from '../browser-mode'
import { resolveDbFile } from '../data-location'
import { createConsoleLogger } from '../logger'
import { parsePort } from './parse-options'

/** The built renderer beside the bundled CLI (out/main/cli.js → out/renderer). */
function rendererDir(): string | undefined {
  const dir = join(__dirname, '..', 'renderer')
  return existsSync(join(dir, 'index.html')) ? dir : undefined
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run Distill in browser mode on 127.0.0.1 and print its address')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 0)
    .action(async (opts: { port: number }) => {
      const global = program.opts<{ db?: string }>()
      const log = createConsoleLogger()
      const dbFile = resolveDbFile({ flag: global.db })
      const staticDir = rendererDir()
      if (!staticDir) log.warn('The renderer is not built (run `npm run build`); serving the API only.')
      const mode = await startBrowserMode({ dbFile, port: opts.port, staticDir, log })
      process.stdout.write(`Distill is running at ${mode.url}\n`)
      process.stdout.write(`Data: ${dbFile}\n`)
      process.stdout.write('Press Ctrl+C to stop.\n')
      const stop = () => {
        void mode.close().then(() => process.exit(0))
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
}
