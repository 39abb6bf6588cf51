import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { looksLikeDistillExport, parseDistillExport } from '../importers/distill-export'
import { print, withApp } from './open-app'

/**
 * `distill import` of a file `distill export --format json` wrote: an equal chat, summaries
 * included. Resolves false, having done nothing, when the file is in another format.
 */
export async function importDistillChat(program: Command, file: string, opts: { title?: string; json?: boolean }): Promise<boolean> {
  const text = readFileSync(file, 'utf8')
  if (!looksLikeDistillExport(text)) return false
  const data = parseDistillExport(text)
  if (opts.title) data.session.title = opts.title.slice(0, 200)
  const imported = await withApp(program, async (app) => {
    const { session, messages } = app.services.sessions.restore(data)
    // Counted with the chat's own model, as if each had just been written.
    for (const m of messages) await app.services.usage.messageWritten(m, session)
    return { id: session.id, title: session.title, messages: messages.length, snapshots: data.snapshots.length }
  })
  print(opts.json, { sessions: [imported] }, () =>
    `Imported "${imported.title}" (${imported.messages} messages${imported.snapshots ? `, ${imported.snapshots} summaries` : ''}) as ${imported.id}`
  )
  return true
}
