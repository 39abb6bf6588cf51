import {
  isRouteName,
  routes,
  type ParsedInput,
  type RouteName,
  type RouteOutput,
  type RpcResult
} from '../../shared/contract'
import { AppError } from '../../shared/app-error'
import { databaseError } from '../services/database-errors'
import type { Logger } from '../services/service-deps'

/** One handler per route; a route without one is a compile error. */
export type Handlers = {
  [R in RouteName]: (input: ParsedInput<R>) => RouteOutput<R> | Promise<RouteOutput<R>>
}

export interface Router {
  call(route: string, input: unknown): Promise<RpcResult<unknown>>
}

export interface RouterOptions {
  log: Logger
  /** Check every answer against the contract too (tests turn this on). */
  validateOutput?: boolean
}

/** Validates input, dispatches, and turns every outcome into an RpcResult: nothing throws out. */
export function createRouter(handlers: Handlers, { log, validateOutput = false }: RouterOptions): Router {
  return {
    async call(name, input) {
      if (!isRouteName(name)) {
        return { ok: false, error: { code: 'not_found', message: `Unknown route "${name}".` } }
      }
      const def = routes[name]
      const parsed = def.input.safeParse(input ?? {})
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({
          path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
          message: i.message
        }))
        return {
          ok: false,
          error: { code: 'invalid_input', message: issues.map((i) => i.message).join('; '), issues }
        }
      }
      const handler = handlers[name] as (input: unknown) => unknown
      return answer(
        name,
        async () => {
          const data = await handler(parsed.data)
          if (validateOutput) {
            const checked = def.output.safeParse(data)
            if (!checked.success) throw new Error(`Output of ${name} breaks the contract: ${checked.error.message}`)
          }
          return data
        },
        log
      )
    }
  }
}

/** Runs a route's work and turns its outcome into an RpcResult: errors meant for the user keep their sentence. */
export async function answer(name: string, work: () => Promise<unknown>, log: Logger): Promise<RpcResult<unknown>> {
  try {
    return { ok: true, data: await work() }
  } catch (err) {
    const known = err instanceof AppError ? err : databaseError(err)
    if (known) {
      if (!(err instanceof AppError)) log.warn(`Route ${name}: ${known.message}`, err)
      return { ok: false, error: { code: known.code, message: known.message } }
    }
    log.error(`Route ${name} failed`, err)
    return {
      ok: false,
      error: { code: 'internal', message: 'Something went wrong inside Distill. The details are in the log.' }
    }
  }
}
