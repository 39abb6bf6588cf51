import { writeFileSync } from 'node:fs'
import { Option, type Command } from 'commander'
import type { ExportFormat } from '../services/sessions/chat-export'
import { withApp } from './open-app'

/** `distill export`: a chat as Markdown or as JSON that `distill import` reads back. Read-only. */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'Export a chat as Markdown or as JSON (OpenAI-format messages plus summaries; `distill import` reads it back)'
    )
    .requiredOption('--session <id>', 'chat id (see `distill sessions`)')
    .addOption(new Option('--format <format>', 'md or json').choices(['md', 'json']).default('md'))
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts: { session: string; format: ExportFormat; out?: string }) => {
      const file = await withApp(program, async (app) => app.services.sessions.export(opts.session, opts.format), {
        readOnly: true,
        command: 'export'
      })
      if (opts.out) {
        writeFileSync(opts.out, file.text)
        process.stderr.write(`Exported to ${opts.out}\n`)
      } else {
        process.stdout.write(file.text)
      }
    })
}
