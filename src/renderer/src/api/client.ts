import type { EventName, EventPayload, RouteInput, RouteName, RouteOutput, RpcResult } from '../../../shared/contract'
import { ApiError } from './api-error'
import type { ConnectionState, Transport } from './transport'

let transport: Transport | null = null
const unauthorizedListeners = new Set<() => void>()

function current(): Transport {
  if (!transport) throw new Error('The api client is used before a transport was installed.')
  return transport
}

/** Installs the transport chosen at start-up (see connect.ts). */
export function installTransport(next: Transport): void {
  transport = next
}

/**
 * The renderer's only way to the main process. `request` resolves with the route's data or throws an
 * ApiError with the server's code, message and issues; `on` subscribes to one event.
 */
export const api = {
  async request<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
    let result: RpcResult<unknown>
    try {
      result = await current().request(route, input)
    } catch {
      result = { ok: false, error: { code: 'unavailable', message: 'Cannot reach Distill.' } }
    }
    if (result.ok) return result.data as RouteOutput<R>
    if (result.error.code === 'unauthorized') for (const listener of unauthorizedListeners) listener()
    throw new ApiError(result.error)
  },

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return current().subscribe((envelope) => {
      if (envelope.event === event) listener(envelope.payload as EventPayload<E>)
    })
  },

  /** The event stream's state; called at once with the current one. */
  onConnection(listener: (state: ConnectionState) => void): () => void {
    return current().onConnection(listener)
  },

  /**
   * Called whenever the stream opens after a time without it, the first opening included: events
   * sent before it (say, between the first loads and the stream's start) were missed, so refetch.
   */
  onReconnect(listener: () => void): () => void {
    let lost = true
    return current().onConnection((state) => {
      if (state === 'lost') lost = true
      if (state === 'open' && lost) {
        lost = false
        listener()
      }
    })
  },

  /** Called when the server refuses the token (browser mode, server restarted with a new one). */
  onUnauthorized(listener: () => void): () => void {
    unauthorizedListeners.add(listener)
    return () => unauthorizedListeners.delete(listener)
  },

  get mode(): Transport['mode'] {
    return current().mode
  }
}

export type Api = typeof api
