import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { looksLikeDistillExport, parseDistillExport } from '../importers/distill-export'
import { importDistillChat as importChat } from '../services/sessions/import-distill-chat'
import { print, withApp } from './open-app'

/**
 * `distill import` of a file `distill export --format json` wrote: an equal chat, summaries and
 * attached files included. Resolves false, having done nothing, when the file is in another format.
 */
export async function importDistillChat(program: Command, file: string, opts: { title?: string; json?: boolean }): Promise<boolean> {
  const text = readFileSync(file, 'utf8')
  if (!looksLikeDistillExport(text)) return false
  const data = parseDistillExport(text)
  if (opts.title) data.session.title = opts.title.slice(0, 200)
  const imported = await withApp(program, async (app) => importChat(app.services, data))
  print(opts.json, { sessions: [imported] }, () =>
    `Imported "${imported.title}" (${imported.messages} messages${imported.snapshots ? `, ${imported.snapshots} summaries` : ''}` +
    `${imported.attachments ? `, ${imported.attachments} ${imported.attachments === 1 ? 'file' : 'files'}` : ''}) as ${imported.id}`
  )
  return true
}
