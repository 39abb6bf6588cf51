import { createHash } from 'node:crypto'
import { AppError } from '../../../shared/app-error'
import type { AttachmentStore } from '../../attachments/attachment-store'
import { parseDistillExport, type DistillExport } from '../../importers/distill-export'
import { ImportError } from '../../importers/openai-messages'
import type { SessionsService } from './sessions-service'
import type { UsageService } from '../conversation/usage-service'

/** A file of an export, checked: its bytes are what its hash says. */
export interface ImportedFile {
  hash: string
  mediaType: string
  /** The name a message attached it under, for messages about it. */
  filename: string
  bytes: Buffer
}

/**
 * The export's files, each checked against its sha-256 and size before anything is written: a
 * damaged or altered file refuses the whole import with a sentence naming it.
 */
export function exportedFiles(data: DistillExport): ImportedFile[] {
  const names = new Map<string, string>()
  for (const m of data.messages) for (const p of m.parts) if (p.type === 'attachment' && p.hash && !names.has(p.hash)) names.set(p.hash, p.filename)
  const seen = new Set<string>()
  return (data.attachments ?? []).flatMap((file, i) => {
    const name = names.get(file.hash) ?? `attachment ${i + 1}`
    if (seen.has(file.hash)) return []
    seen.add(file.hash)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file.data) || file.data.length % 4 !== 0) {
      throw new ImportError(`The file “${name}” in the export is not valid base64. Nothing was imported.`)
    }
    const bytes = Buffer.from(file.data, 'base64')
    const actual = createHash('sha256').update(bytes).digest('hex')
    if (bytes.length !== file.size || actual !== file.hash) {
      throw new ImportError(`The file “${name}” in the export does not match its checksum: it was damaged or changed. Nothing was imported.`)
    }
    return [{ hash: file.hash, mediaType: file.mediaType, filename: name, bytes }]
  })
}

export interface ImportedDistillChat {
  id: string
  title: string
  messages: number
  snapshots: number
  attachments: number
}

/**
 * Stores an export's files by their hash. Every file was checked against its checksum first, and
 * each is checked again as an upload is (what the bytes are), so a bad file refuses the import
 * before any message is written. A file already stored is found, not written twice.
 */
async function storeFiles(store: AttachmentStore, files: readonly ImportedFile[]): Promise<void> {
  for (const file of files) {
    try {
      await store.upload({ filename: file.filename, mediaType: file.mediaType, data: file.bytes })
    } catch (err) {
      throw new ImportError(`The file “${file.filename}” in the export could not be stored: ${(err as Error).message} Nothing was imported.`)
    }
  }
}

/**
 * Imports a Distill chat export (`distill export --format json`, or "Export as JSON"): its files
 * first, then the chat in one transaction, then each message counted for the chat's model. A file
 * stored before a later failure is an unsent upload the store sweeps after its grace period.
 */
export async function importDistillChat(
  services: { sessions: SessionsService; usage: UsageService; attachments: AttachmentStore },
  data: DistillExport
): Promise<ImportedDistillChat> {
  const files = exportedFiles(data)
  await storeFiles(services.attachments, files)
  const { session, messages } = services.sessions.restore(data)
  // Counted with the chat's own model, as if each had just been written.
  for (const m of messages) await services.usage.messageWritten(m, session)
  return { id: session.id, title: session.title, messages: messages.length, snapshots: data.snapshots.length, attachments: files.length }
}

/** The same from a file's text, for the app's "Import chat": an unreadable file is an invalid input, said in a sentence. */
export async function importDistillChatText(services: Parameters<typeof importDistillChat>[0], text: string): Promise<ImportedDistillChat> {
  try {
    return await importDistillChat(services, parseDistillExport(text))
  } catch (err) {
    if (err instanceof ImportError) throw new AppError('invalid_input', err.message)
    throw err
  }
}
