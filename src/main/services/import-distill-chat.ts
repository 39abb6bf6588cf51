import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { AppError } from '../../shared/app-error'
import type { AttachmentPart } from '../../shared/domain/chat-message'
import type { AttachmentStore } from '../attachments/attachment-store'
import { parseDistillExport, placedMessages, type DistillExport, type PlacedMessage } from '../importers/distill-export'
import { AlreadyImported, ImportError } from '../importers/openai-messages'
import { countMessage } from '../tokens/message-tokens'
import type { ModelsService } from './models-service'
import type { SessionsService } from './sessions-service'
import type { SettingsService } from './settings-service'

/** A file of an export, checked: its bytes are what its hash says. */
export interface ImportedFile {
  hash: string
  mediaType: string
  /** The name a message attached it under, for messages about it. */
  filename: string
  bytes: Buffer
}

/** Work on the event loop is cut into slices about this long, so the app keeps answering during an import. */
const SLICE_MS = 8

/** Resolves at once, or on the next turn of the event loop once the current slice is used up. */
function slicer(): () => Promise<void> | undefined {
  let start = performance.now()
  return () => {
    if (performance.now() - start < SLICE_MS) return undefined
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        start = performance.now()
        resolve()
      })
    )
  }
}

const attachmentParts = (data: DistillExport) =>
  placedMessages(data).flatMap(({ message }) => message.parts.filter((p): p is AttachmentPart & { hash: string } => p.type === 'attachment' && !!p.hash))

/**
 * The export's files, each checked against its sha-256 and size before anything is written: a
 * damaged or altered file refuses the whole import with a sentence naming it. One file per slice.
 */
export async function exportedFiles(data: DistillExport): Promise<ImportedFile[]> {
  const names = new Map<string, string>()
  for (const p of attachmentParts(data)) if (!names.has(p.hash)) names.set(p.hash, p.filename)
  const seen = new Set<string>()
  const files: ImportedFile[] = []
  for (const [i, file] of (data.attachments ?? []).entries()) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    const name = names.get(file.hash) ?? `attachment ${i + 1}`
    if (seen.has(file.hash)) continue
    seen.add(file.hash)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file.data) || file.data.length % 4 !== 0) {
      throw new ImportError(`The file “${name}” in the export is not valid base64. Nothing was imported.`)
    }
    const bytes = Buffer.from(file.data, 'base64')
    const actual = createHash('sha256').update(bytes).digest('hex')
    if (bytes.length !== file.size || actual !== file.hash) {
      throw new ImportError(`The file “${name}” in the export does not match its checksum: it was damaged or changed. Nothing was imported.`)
    }
    files.push({ hash: file.hash, mediaType: file.mediaType, filename: name, bytes })
  }
  return files
}

/**
 * Files the messages attach that neither the export carries nor this database stores. An export
 * with an `attachments` list that lacks some is refused (it lost them on the way); one made before
 * files were exported keeps their names only, and the import says how many.
 */
function missingFiles(data: DistillExport, files: readonly ImportedFile[], store: AttachmentStore): number {
  const carried = new Set(files.map((f) => f.hash))
  const missing = new Map<string, string>()
  for (const p of attachmentParts(data)) if (!carried.has(p.hash) && !store.describe(p.hash)) missing.set(p.hash, p.filename)
  if (missing.size === 0) return 0
  if (data.attachments) {
    const names = [...missing.values()].slice(0, 3).map((n) => `“${n}”`).join(', ')
    const what = missing.size === 1 ? `the file ${names}` : `${missing.size} files (${names}${missing.size > 3 ? ', …' : ''})`
    throw new ImportError(`The messages attach ${what}, which the export does not carry. Nothing was imported.`)
  }
  for (const { message } of placedMessages(data)) {
    message.parts = message.parts.map((p) => (p.type === 'attachment' && p.hash && missing.has(p.hash) ? (({ hash: _h, ...rest }) => rest)(p) : p))
  }
  return missing.size
}

/**
 * Identifies an exported chat by what it says: system prompt, every message's role and parts, and
 * which are set aside (not its title, ids or times), so the same export imported twice is noticed.
 */
export function exportHash(data: DistillExport): string {
  const hash = createHash('sha256').update(JSON.stringify(['distill-chat', data.session.systemPrompt]))
  for (const m of placedMessages(data)) hash.update('\0').update(JSON.stringify([m.message.role, m.hiddenIn !== null, m.message.parts]))
  return hash.digest('hex')
}

export interface ImportedDistillChat {
  id: string
  title: string
  /** Messages of the conversation as it stands. */
  messages: number
  /** Messages of the versions set aside. */
  versions: number
  snapshots: number
  attachments: number
  /** Files an older export named without carrying them: their names are kept. */
  missingFiles: number
}

export interface ImportDistillOptions {
  /** The file name, kept with the import record. */
  source: string
  /** Import even when the same chat was imported before. */
  again?: boolean
}

export interface DistillImportServices {
  sessions: SessionsService
  attachments: AttachmentStore
  models: ModelsService
  settings: SettingsService
}

/**
 * Stores an export's files by their hash, as an upload is stored (what the bytes are). Returns
 * the files this database did not hold before, which a failed import removes again.
 */
async function storeFiles(store: AttachmentStore, files: readonly ImportedFile[], stored: string[]): Promise<void> {
  for (const file of files) {
    const existed = store.describe(file.hash) !== undefined
    try {
      await store.upload({ filename: file.filename, mediaType: file.mediaType, data: file.bytes })
    } catch (err) {
      throw new ImportError(`The file “${file.filename}” in the export could not be stored: ${(err as Error).message} Nothing was imported.`)
    }
    if (!existed) stored.push(file.hash)
  }
}

/** Each message counted for the chat's model, a slice at a time. */
async function counted(services: DistillImportServices, data: DistillExport): Promise<Array<PlacedMessage & { count: { tokens: number; counter: string } }>> {
  const { defaultProvider, defaultModel } = services.settings.get()
  const spec = services.models.spec(data.session.provider ?? defaultProvider, data.session.modelId ?? defaultModel)
  const next = slicer()
  const out = []
  for (const m of placedMessages(data)) {
    await next()
    out.push({ ...m, count: countMessage({ role: m.message.role, parts: m.message.parts }, spec) })
  }
  return out
}

/**
 * Imports a Distill chat export (`distill export --format json`, or "Export as JSON") as a new chat,
 * every version included, all or nothing: its files are checked, stored, then the chat is written
 * in one transaction; if anything fails, the files this import stored are removed again. The same
 * chat imported again is refused (AlreadyImported) unless `again`.
 */
export async function importDistillChat(
  services: DistillImportServices,
  data: DistillExport,
  options: ImportDistillOptions
): Promise<ImportedDistillChat> {
  const contentHash = exportHash(data)
  const earlier = options.again ? undefined : services.sessions.importedBefore(contentHash)
  if (earlier) throw new AlreadyImported(earlier)
  const files = await exportedFiles(data)
  const missing = missingFiles(data, files, services.attachments)
  const stored: string[] = []
  try {
    await storeFiles(services.attachments, files, stored)
    const messages = await counted(services, data)
    const session = services.sessions.restore({ data, messages, contentHash, source: options.source, again: options.again })
    const versions = data.versions?.length ?? 0
    return {
      id: session.id,
      title: session.title,
      messages: messages.length - versions,
      versions,
      snapshots: data.snapshots.length,
      attachments: files.length,
      missingFiles: missing
    }
  } catch (err) {
    for (const hash of services.sessions.discardFiles(stored)) rmSync(services.attachments.pathOf(hash), { force: true })
    throw err
  }
}

/** The same from a file's text, for the app's "Import chat": an unreadable file is an invalid input, said in a sentence. */
export async function importDistillChatText(services: DistillImportServices, text: string): Promise<ImportedDistillChat> {
  try {
    return await importDistillChat(services, parseDistillExport(text), { source: 'Import chat' })
  } catch (err) {
    if (err instanceof AlreadyImported) throw new AppError('conflict', err.message)
    if (err instanceof ImportError) throw new AppError('invalid_input', err.message)
    throw err
  }
}
