import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { version } from '../../package.json'
import type { AppInfo } from '../shared/contract'
import { openDatabase, type DbHandle } from './db/client'
import { createConsoleLogger } from './logger'
import { createChatService } from './services/chat-service'
import type { Clock, IdGenerator, Logger, ServiceDeps } from './services/service-deps'
import { createSessionsService } from './services/sessions-service'
import { createSettingsService } from './services/settings-service'
import { createEventHub, type EventHub } from './transport/event-hub'
import { createHandlers } from './transport/handlers'
import { createRouter, type Router } from './transport/router'

export interface AppOptions {
  dbFile: string
  mode: AppInfo['mode']
  clock?: Clock
  ids?: IdGenerator
  log?: Logger
  validateOutput?: boolean
}

export interface Services {
  sessions: ReturnType<typeof createSessionsService>
  chat: ReturnType<typeof createChatService>
  settings: ReturnType<typeof createSettingsService>
}

export interface App {
  services: Services
  router: Router
  events: EventHub
  database: DbHandle
  info(): AppInfo
  close(): void
}

/**
 * The composition root shared by Electron, browser mode, the CLI and the tests: one database,
 * the services over it, and the router every transport carries.
 */
export function createApp(options: AppOptions): App {
  const log = options.log ?? createConsoleLogger()
  if (options.dbFile !== ':memory:') mkdirSync(dirname(options.dbFile), { recursive: true })
  const database = openDatabase(options.dbFile)
  const events = createEventHub()
  const deps: ServiceDeps = {
    db: database.db,
    clock: options.clock ?? { now: () => Date.now() },
    ids: options.ids ?? (() => uuidv7()),
    emit: (event, payload) => events.emit(event, payload),
    log
  }
  const sessions = createSessionsService(deps)
  const services: Services = {
    sessions,
    chat: createChatService({ ...deps, sessions }),
    settings: createSettingsService(deps)
  }
  const info = (): AppInfo => ({
    name: 'Distill',
    version,
    mode: options.mode,
    databaseFile: database.file,
    warnings: services.settings.warnings()
  })
  const router = createRouter(createHandlers(services, info), { log, validateOutput: options.validateOutput })
  return { services, router, events, database, info, close: () => database.close() }
}
