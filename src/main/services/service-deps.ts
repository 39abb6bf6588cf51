import type { EventName, EventPayload } from '../../shared/contract'
import type { Db } from '../db/client'

export interface Clock {
  now(): number
}

export type IdGenerator = () => string

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void

export interface Logger {
  info(message: string, extra?: unknown): void
  warn(message: string, extra?: unknown): void
  error(message: string, extra?: unknown): void
}

/** What every service is built from; app.ts constructs it once. */
export interface ServiceDeps {
  db: Db
  clock: Clock
  ids: IdGenerator
  emit: Emit
  log: Logger
}
