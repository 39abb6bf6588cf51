import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { Command } from 'commander'
import { looksLikeDistillExport } from '../imports/distill-export'
import { AlreadyImported, ImportError } from '../imports/openai-messages'
import { importDistillChat, type ImportedDistillChat } from '../services/imports/import-distill-chat'
import { print, withApp } from './open-app'
import { fileStart } from './read-chatgpt-export'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

function describe(imported: ImportedDistillChat & { joined: boolean }): string {
  const extras = [
    plural(imported.messages, 'message', 'messages'),
    ...(imported.versions ? [`${plural(imported.versions, 'message', 'messages')} in other versions`] : []),
    ...(imported.snapshots ? [`${imported.snapshots} summaries`] : []),
    ...(imported.attachments ? [plural(imported.attachments, 'file', 'files')] : [])
  ]
  const missing = imported.missingFiles
    ? `\n${plural(imported.missingFiles, 'file was', 'files were')} not in the export (it predates exported files): only ${imported.missingFiles === 1 ? 'its name is' : 'their names are'} kept.`
    : ''
  const project = imported.project
    ? imported.joined
      ? `\nIt is in the project "${imported.project}".`
      : `\nThe file names the project "${imported.project}"; the chat was left out of it (use --join-project to put it there).`
    : ''
  return `Imported "${imported.title}" (${extras.join(', ')}) as ${imported.id}${missing}${project}`
}

/**
 * `distill import` of a file `distill export --format json` wrote: an equal chat, every version,
 * summaries and attached files included. Resolves false, having done nothing, when the file is in
 * another format.
 */
export async function importDistillFile(
  program: Command,
  file: string,
  opts: { title?: string; json?: boolean; again?: boolean; joinProject?: boolean }
): Promise<boolean> {
  // Another format (a ChatGPT export may pass 1 GB) is not read whole here.
  if (!fileStart(file).trimStart().startsWith('{')) return false
  const bytes = readFileSync(file)
  if (!looksLikeDistillExport(bytes.toString('utf8'))) return false
  const imported = await withApp(
    program,
    async (app) =>
      importDistillChat(app.services, bytes, {
        source: basename(file),
        again: opts.again,
        title: opts.title,
        joinProject: opts.joinProject
      }),
    {
      command: 'import'
    }
  ).catch((err: unknown) => {
    if (err instanceof AlreadyImported)
      throw new ImportError(`${err.message.replace(/ Nothing was imported\.$/, '')} Use --again to import it anyway.`)
    throw err
  })
  const joined = !!opts.joinProject && imported.project !== null
  print(opts.json, { sessions: [{ ...imported, joined }] }, () => describe({ ...imported, joined }))
  return true
}
