import { rmSync } from 'node:fs'
import { resolveChatModel } from '../../../shared/domain/chat-settings'
import { v7 as uuidv7 } from 'uuid'
import { AppError } from '../../../shared/app-error'
import type { AttachmentStore } from '../../attachments/attachment-store'
import { AlreadyImported, ImportError } from '../../imports/openai-messages'
import { utf8InSlices } from '../../imports/utf8-in-slices'
import { idsNeeded, type ImportedFile, type PreparedImport } from '../../imports/import-job'
import { createImportThread, type ImportThread } from '../../imports/import-thread'
import type { ModelsService } from '../settings/models-service'
import type { SessionsService } from '../sessions/sessions-service'
import type { ProjectsService } from '../sessions/projects-service'
import type { SettingsService } from '../settings/settings-service'

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
  /**
   * The project the file names. The chat is not put in it: its text would reach the project's other
   * chats through Recall across the project, so the user decides (the app offers it after the import).
   */
  project: string | null
}

export interface ImportDistillOptions {
  /** The file name, kept with the import record. */
  source: string
  /** Import even when the same chat was imported before. */
  again?: boolean
  /** A title instead of the exported one. */
  title?: string
  /** The bytes are a `sessions.import` request body, `{ "text": "…" }`, not the file itself. */
  wrapped?: boolean
  /** Put the chat in the project the file names (joined by name, or made): only when the user said so. */
  joinProject?: boolean
}

export interface DistillImportServices {
  sessions: SessionsService
  attachments: AttachmentStore
  models: ModelsService
  settings: SettingsService
  /** To put the chat in the project the file names, when asked (joined, or made). */
  projects?: ProjectsService
}

/** One import thread for the process (unref'd: it never keeps the process alive). */
let shared: ImportThread | undefined
let nextKey = 1

/**
 * Files the messages attach that neither the export carries nor this database stores. An export
 * that lists its files but lacks some is refused (it lost them on the way); one made before files
 * were exported keeps their names only: their hashes are returned, to be left out of the parts.
 */
function missingFiles(prepared: PreparedImport, store: AttachmentStore): string[] {
  const carried = new Set(prepared.files.map((f) => f.hash))
  const missing = prepared.attached.filter((a) => !carried.has(a.hash) && !store.describe(a.hash))
  if (missing.length && prepared.listsFiles) {
    const names = missing
      .slice(0, 3)
      .map((a) => `“${a.filename}”`)
      .join(', ')
    const what =
      missing.length === 1
        ? `the file ${names}`
        : `${missing.length} files (${names}${missing.length > 3 ? ', …' : ''})`
    throw new ImportError(`The messages attach ${what}, which the export does not carry. Nothing was imported.`)
  }
  return missing.map((a) => a.hash)
}

/**
 * Stores an export's files by their hash, as an upload is stored (what the bytes are), recording
 * in `stored` the files this database did not hold before, which a failed import removes again.
 */
async function storeFiles(store: AttachmentStore, files: readonly ImportedFile[], stored: string[]): Promise<void> {
  for (const file of files) {
    // One file per turn of the event loop: hashing and writing 5 MB takes the main thread ~15 ms.
    await new Promise<void>((resolve) => setImmediate(resolve))
    const existed = store.describe(file.hash) !== undefined
    try {
      await store.upload({ filename: file.filename, mediaType: file.mediaType, data: file.bytes })
    } catch (err) {
      throw new ImportError(
        `The file “${file.filename}” in the export could not be stored: ${(err as Error).message} Nothing was imported.`
      )
    }
    if (!existed) stored.push(file.hash)
  }
}

/** UUIDv7s for the new rows, 2,000 per turn of the event loop (13,000 at once took ~15 ms). */
async function newIds(n: number): Promise<string[]> {
  const ids: string[] = []
  while (ids.length < n) {
    if (ids.length) await new Promise<void>((resolve) => setImmediate(resolve))
    for (let i = Math.min(2_000, n - ids.length); i > 0; i--) ids.push(uuidv7())
  }
  return ids
}

/**
 * Imports a Distill chat export (`distill export --format json`, or "Export as JSON") as a new chat,
 * every version included, all or nothing. The export is parsed, checked and written on the import
 * thread, so the app keeps answering meanwhile; the main thread only stores its files (after their
 * checksums were checked) and, if the write then fails, removes the ones it stored. The same chat
 * imported again is refused (AlreadyImported) unless `again`.
 */
export async function importDistillChat(
  services: DistillImportServices,
  bytes: Uint8Array,
  options: ImportDistillOptions
): Promise<ImportedDistillChat> {
  const target = services.sessions.importTarget()
  const thread =
    'db' in target
      ? createImportThread({ warn: () => undefined, memoryDb: target.db })
      : (shared ??= createImportThread({ warn: () => undefined }))
  const key = nextKey++
  const prepared = await thread.prepare(key, bytes, options.wrapped ?? false)
  const stored: string[] = []
  try {
    const earlier = options.again ? undefined : services.sessions.importedBefore(prepared.contentHash)
    if (earlier) throw new AlreadyImported(earlier)
    const stripHashes = missingFiles(prepared, services.attachments)
    await storeFiles(services.attachments, prepared.files, stored)
    const { provider, modelId } = resolveChatModel(prepared.session, services.settings.get())
    const spec = services.models.spec(provider, modelId)
    const written = await thread.write(key, 'file' in target ? target.file : ':memory:', {
      spec,
      ids: await newIds(idsNeeded(prepared)),
      now: target.now,
      title: (options.title ?? services.sessions.importTitle(prepared.session.title)).slice(0, 200),
      stripHashes,
      again: options.again ?? false,
      source: options.source,
      contentHash: prepared.contentHash,
      pins: {
        limitPercent: services.settings.get().pinShareLimit,
        safetyMarginPercent: services.settings.get().safetyMarginPercent
      }
    })
    if ('earlier' in written) throw new AlreadyImported(written.earlier)
    const joined = options.joinProject && prepared.session.project && services.projects?.join(prepared.session.project)
    if (joined) services.sessions.update(written.sessionId, { projectId: joined.id })
    const session = services.sessions.imported(written.sessionId)
    return {
      id: session.id,
      title: session.title,
      messages: prepared.messages,
      versions: prepared.versions,
      snapshots: prepared.snapshots,
      attachments: prepared.files.length,
      missingFiles: stripHashes.length,
      project: prepared.session.project ?? null
    }
  } catch (err) {
    thread.drop(key)
    for (const hash of services.sessions.discardFiles(stored))
      rmSync(services.attachments.pathOf(hash), { force: true })
    throw err
  }
}

/** The app's "Import chat": an unreadable file is an invalid input, a second import a conflict, each said in a sentence. */
export async function importDistillChatText(
  services: DistillImportServices,
  text: string | Uint8Array,
  wrapped = false
): Promise<ImportedDistillChat> {
  try {
    return await importDistillChat(services, typeof text === 'string' ? await utf8InSlices(text) : text, {
      source: 'Import chat',
      wrapped
    })
  } catch (err) {
    if (err instanceof AlreadyImported) throw new AppError('conflict', err.message)
    if (err instanceof ImportError) throw new AppError('invalid_input', err.message)
    throw err
  }
}
