import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { version } from '../../package.json'
import type { AppInfo } from '../shared/contract'
import type { RetryPolicy } from './providers/stream-reply'
import { attachmentsDir, createAttachmentStore } from './attachments/attachment-store'
import { createChatAttachments } from './attachments/chat-attachments'
import { attachmentTokens } from './tokens/attachment-tokens'
import { openDatabase, type DbHandle } from './db/client'
import { startCheckpoints, type Checkpoints } from './workers/checkpoint/checkpoint-thread'
import { warmTokenizers } from './services/conversation/warm-tokenizers'
import { warmNewestChat } from './services/conversation/warm-newest-chat'
import { acquireFileLock, acquireOwnerLock, type OwnerLock } from './db/owner-lock'
import { prepareDataDir, tightenDataFiles } from './data-location'
import { createConsoleLogger } from './logger'
import { createChatService } from './services/chat/chat-service'
import { createPinService } from './services/chat/pin-service'
import { createCompressionService } from './services/compression/compression-service'
import { createHistoryService } from './services/history/history-service'
import { createSummarySources } from './services/sessions/summary-sources'
import { createNextRequest } from './services/next-request/next-request'
import { createAfterReply } from './services/chat/after-reply'
import { createRecallService } from './services/recall/recall-service'
import { createProjectsService } from './services/sessions/projects-service'
import { createModelsService } from './services/settings/models-service'
import { createUsageService } from './services/conversation/usage-service'
import { createProvidersService } from './services/settings/providers-service'
import { createFileSecretStore, type SecretStore } from './services/settings/secret-store'
import type { Clock, IdGenerator, Logger, ServiceDeps } from './services/service-deps'
import { createSessionsService } from './services/sessions/sessions-service'
import { createSettingsService } from './services/settings/settings-service'
import { createTitleService } from './services/chat/title-service'
import type { Services } from './services/services'
import { createEventHub, type EventHub } from './transport/event-hub'
import { createHandlers } from './transport/handlers'
import { createRouter, type Router } from './transport/router'
import { createExtractiveThread } from './workers/summary/extractive-thread'

export interface AppOptions {
  dbFile: string
  /**
   * 'owner' (the default): this process becomes the database's one writer and holds its lock until
   * close; a second owner is refused with a sentence naming the first. 'read-only': opens the file
   * read-only (no migrations, no start-up repair), so it works while another process owns it.
   */
  access?: 'owner' | 'read-only'
  /** How this process is named to a second one that finds the database taken, e.g. "distill serve". */
  command?: string
  /** Where API keys are kept; defaults to secrets.json beside the database. */
  secrets?: SecretStore
  env?: NodeJS.ProcessEnv
  /** Abort a reply when the provider sends nothing for this long (tests shorten it). */
  stallMs?: number
  retry?: RetryPolicy
  /** Waits before each retry of a model summary written in the background (tests shorten them). */
  backgroundRetryMs?: readonly number[]
  preparedRetryMs?: readonly number[]
  /** How long a chat-title request may take before the first-message title stays (tests shorten it). */
  titleTimeoutMs?: number
  /** Used for countTokens endpoints and local server model lists (tests inject it). */
  fetch?: typeof fetch
  mode: AppInfo['mode']
  /** false writes extractive summaries on the main thread (the bench's baseline); a worker thread otherwise. */
  summaryThread?: boolean
  clock?: Clock
  ids?: IdGenerator
  log?: Logger
  validateOutput?: boolean
  /**
   * Load the tokenizers a model switch needs, and the newest chat, inside createApp (the benches that
   * time an open). The desktop app and browser mode serve first and warm later (warm-when-quiet.ts).
   */
  warmTokenizers?: boolean
}

export interface App {
  services: Services
  router: Router
  events: EventHub
  database: DbHandle
  info(): AppInfo
  close(): Promise<void>
}

function defaultCommand(): string {
  return process.versions.electron
    ? 'the desktop app'
    : `distill ${process.argv.slice(2).find((a) => !a.startsWith('-')) ?? ''}`.trim()
}

/**
 * The composition root shared by Electron, browser mode, the CLI and the tests: one database,
 * the services over it, and the router every transport carries.
 */
export function createApp(options: AppOptions): App {
  const log = options.log ?? createConsoleLogger()
  const readOnly = options.access === 'read-only'
  const onDisk = options.dbFile !== ':memory:'
  let database: DbHandle
  if (readOnly || !onDisk) {
    database = openDatabase(options.dbFile, { readonly: readOnly })
  } else {
    prepareDataDir(options.dbFile, options.env)
    const command = options.command ?? defaultCommand()
    const lock = acquireOwnerLock(options.dbFile, command)
    let fileLock: OwnerLock | undefined
    try {
      // A hard link reaches the same file by another path: the file's own lock meets it (taken
      // before opening a file that exists, right after creating one that did not).
      if (existsSync(options.dbFile)) fileLock = acquireFileLock(options.dbFile, command)
      const opened = openDatabase(options.dbFile)
      try {
        fileLock ??= acquireFileLock(options.dbFile, command)
      } catch (err) {
        opened.close()
        throw err
      }
      tightenDataFiles(options.dbFile)
      // Ownership lasts as long as the handle: closing it lets another process write.
      database = {
        ...opened,
        close: () => {
          try {
            opened.close()
          } finally {
            fileLock?.release()
            lock.release()
          }
        }
      }
    } catch (err) {
      fileLock?.release()
      lock.release()
      throw err
    }
  }
  // Asked for: the tokenizers load inside the open (warm-tokenizers.ts).
  if (options.warmTokenizers && !readOnly) warmTokenizers()
  // The owner's log checkpoints run on a thread of their own, not in a commit on the event loop.
  const checkpoints: Checkpoints =
    readOnly || !onDisk ? { close: async () => undefined } : startCheckpoints(database, log.warn)
  const events = createEventHub()
  const deps: ServiceDeps = {
    db: database.db,
    clock: options.clock ?? { now: () => Date.now() },
    ids: options.ids ?? (() => uuidv7()),
    emit: (event, payload) => events.emit(event, payload),
    log
  }
  const settings = createSettingsService(deps)
  // Called when a chat is created, after everything below exists.
  const attachments = createAttachmentStore({
    db: database.db,
    dir: attachmentsDir(onDisk ? dirname(options.dbFile) : join(tmpdir(), `distill-memory-${process.pid}`)),
    now: () => deps.clock.now()
  })
  const sessions = createSessionsService(
    deps,
    () => models.newChat(),
    (hash) => {
      const row = attachments.describe(hash)
      if (!row) return undefined
      try {
        return { mediaType: row.mediaType, bytes: attachments.read(hash) }
      } catch {
        return undefined
      }
    }
  )
  const secrets =
    options.secrets ??
    createFileSecretStore(
      options.dbFile === ':memory:'
        ? join(tmpdir(), `distill-secrets-${process.pid}.json`)
        : join(dirname(options.dbFile), 'secrets.json')
    )
  const providers = createProvidersService({
    secrets,
    settings,
    env: options.env ?? process.env,
    clock: deps.clock,
    fetch: options.fetch
  })
  const models = createModelsService({
    settings,
    providers,
    log,
    fetch: options.fetch,
    // A local server told a model's window: the meters of chats on that model change.
    onWindowChange: (modelId) => {
      for (const s of sessions.all()) {
        const chat = settings.forChat(s)
        if (chat.provider === 'openai-compatible' && chat.modelId === modelId)
          deps.emit('usage.changed', { sessionId: s.id })
      }
    }
  })
  const recall = createRecallService({ db: database.db, settings, emit: deps.emit })
  if (!readOnly) {
    // Files a deleted chat left, unsent uploads past their grace, and any a crash left without a row.
    attachments.sweep({ orphanFiles: true })
    // Text files stored before recall indexed attachments become findable (once: indexed ones are skipped).
    attachments.indexStored()
    events.subscribe(({ event, payload }) => {
      if (event === 'sessions.changed' && (payload as { reason?: string }).reason === 'deleted') attachments.sweep()
    })
  }
  const extractive =
    options.summaryThread === false
      ? undefined
      : createExtractiveThread({ warn: (message) => log.warn(message), dbFile: database.file })
  const usage = createUsageService({
    ...deps,
    sessions,
    settings,
    providers,
    models,
    fetch: options.fetch,
    readOnly,
    recountOffThread: extractive ? (spec, ids) => extractive.recount({ spec, ids }) : undefined
  })
  const compression = createCompressionService({
    ...deps,
    extractive,
    usage,
    settings,
    providers,
    models,
    stallMs: options.stallMs,
    retry: options.retry,
    backgroundRetryMs: options.backgroundRetryMs,
    preparedRetryMs: options.preparedRetryMs
  })
  const next = createNextRequest({
    usage,
    compression,
    recall,
    settings,
    readOnly,
    attachmentTokens: (sessionId, cutoffSeq, spec) =>
      attachments
        .attachedMessages(sessionId, { after: cutoffSeq })
        .reduce((sum, m) => sum + attachmentTokens(m.parts, spec), 0)
  })
  const titles = createTitleService({
    ...deps,
    sessions,
    providers,
    settings,
    models,
    timeoutMs: options.titleTimeoutMs
  })
  const chat = createChatService({
    ...deps,
    attachments: createChatAttachments({
      store: attachments,
      abilities: (provider, modelId) => models.spec(provider, modelId),
      configured: (provider) => providers.status(provider).ready,
      models: () => models.known()
    }),
    // Only the owner repairs replies a crash left streaming: a reader would mark a live one.
    repairInterrupted: !readOnly,
    prepareRequest: next.forSend,
    sessions,
    providers,
    settings,
    stallMs: options.stallMs,
    // A test that shortens the stall timeout shortens the first-chunk wait with it.
    firstChunkMs: options.stallMs,
    retry: options.retry,
    reply: createAfterReply({ usage, titles, compression, readOnly }),
    ...(checkpoints.append ? { appendOnThread: checkpoints.append } : {})
  })
  const history = createHistoryService({ ...deps, sessions, usage, settings })
  const services: Services = {
    sessions,
    chat,
    pins: createPinService({ ...deps, usage, settings, sessions }),
    settings,
    providers,
    models,
    usage,
    next,
    compression,
    summarySources: createSummarySources(deps),
    history,
    recall,
    titles,
    attachments,
    projects: createProjectsService(deps)
  }
  // …and the chat it most likely opens on.
  if (options.warmTokenizers && !readOnly) warmNewestChat(sessions, usage, log.warn)
  const info = (): AppInfo => ({
    name: 'Distill',
    version,
    mode: options.mode,
    databaseFile: database.file,
    warnings: services.settings.warnings()
  })
  const router = createRouter(createHandlers(services, info), { log, validateOutput: options.validateOutput })
  return {
    services,
    router,
    events,
    database,
    info,
    close: async () => {
      await chat.close()
      await compression.close()
      await extractive?.close()
      await titles.close()
      await checkpoints.close()
      try {
        usage.dispose()
      } catch (err) {
        // A tokenizer that failed earlier may refuse to be freed; the data is already safe.
        log.warn('Freeing the tokenizers failed', err)
      }
      database.close()
    }
  }
}
