import type { EventEnvelope, RpcResult } from '../../../shared/contract'
import type { ConnectionState, Transport } from './transport'

export const TOKEN_STORAGE_KEY = 'distill.token'
const RETRY_MIN_MS = 1_000
const RETRY_MAX_MS = 30_000

export type BrowserAuthFailure = 'no-token' | 'rejected' | 'unreachable'

export type BrowserConnectResult =
  | { ok: true; transport: Transport }
  | { ok: false; reason: BrowserAuthFailure }

function unreachable(): RpcResult<never> {
  return {
    ok: false,
    error: { code: 'unavailable', message: 'Cannot reach Distill. Is `distill serve` still running?' }
  }
}

function isRpcResult(value: unknown): value is RpcResult<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean'
}

function isEnvelope(value: unknown): value is EventEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as { event?: unknown }).event === 'string'
}

/** Takes the token from the URL fragment (and removes it from the address bar), or from this tab's storage. */
function takeToken(): { token: string | null; fromUrl: boolean } {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token')
  if (fromHash) {
    try {
      sessionStorage.setItem(TOKEN_STORAGE_KEY, fromHash)
    } catch {
      // Storage can be disabled; the token then lives for this page only.
    }
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
    return { token: fromHash, fromUrl: true }
  }
  let stored: string | null = null
  try {
    stored = sessionStorage.getItem(TOKEN_STORAGE_KEY)
  } catch {
    stored = null
  }
  return { token: stored, fromUrl: false }
}

function forgetToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_STORAGE_KEY)
  } catch {
    // nothing to forget
  }
}

async function rpc(route: string, input: unknown, token: string | null): Promise<RpcResult<unknown>> {
  let response: Response
  try {
    response = await fetch(`/rpc/${encodeURIComponent(route)}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {})
      },
      body: JSON.stringify(input ?? {})
    })
  } catch {
    return unreachable()
  }
  try {
    const body: unknown = await response.json()
    if (isRpcResult(body)) return body
  } catch {
    // fall through: not JSON
  }
  return {
    ok: false,
    error: {
      code: response.status === 401 ? 'unauthorized' : 'internal',
      message: `Unexpected response from Distill (HTTP ${response.status}).`
    }
  }
}

/**
 * Browser mode: exchanges the token for the HttpOnly cookie EventSource needs, then speaks
 * `POST /rpc/:route` and `GET /events`. A page reloaded without its fragment falls back to the
 * token kept in sessionStorage, then to the cookie alone.
 */
export async function connectBrowser(): Promise<BrowserConnectResult> {
  let { token } = takeToken()
  const hadToken = token !== null

  if (token) {
    let response: Response
    try {
      response = await fetch('/auth', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    } catch {
      return { ok: false, reason: 'unreachable' }
    }
    if (!response.ok) {
      forgetToken()
      token = null
    }
  }

  if (!token) {
    // Maybe the cookie from an earlier visit still holds.
    const probe = await rpc('app.info', {}, null)
    if (!probe.ok) {
      if (probe.error.code === 'unavailable') return { ok: false, reason: 'unreachable' }
      return { ok: false, reason: hadToken ? 'rejected' : 'no-token' }
    }
  }

  return { ok: true, transport: createBrowserTransport(token) }
}

function createBrowserTransport(token: string | null): Transport {
  const listeners = new Set<(envelope: EventEnvelope) => void>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  let state: ConnectionState = 'connecting'
  let retryMs = RETRY_MIN_MS
  let retryTimer: ReturnType<typeof setTimeout> | undefined

  function setState(next: ConnectionState): void {
    if (next === state) return
    state = next
    for (const listener of connectionListeners) listener(next)
  }

  function open(): void {
    const source = new EventSource('/events')
    source.onopen = () => {
      retryMs = RETRY_MIN_MS
      setState('open')
    }
    source.onmessage = (message: MessageEvent<string>) => {
      let envelope: unknown
      try {
        envelope = JSON.parse(message.data)
      } catch {
        return
      }
      if (!isEnvelope(envelope)) return
      for (const listener of listeners) listener(envelope)
    }
    source.onerror = () => {
      if (state === 'open') setState('lost')
      // EventSource retries on its own unless the server answered with an error status.
      if (source.readyState === EventSource.CLOSED) {
        source.close()
        setState('lost')
        clearTimeout(retryTimer)
        retryTimer = setTimeout(open, retryMs)
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
      }
    }
  }

  open()

  return {
    mode: 'browser',
    request: (route, input) => rpc(route, input, token),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onConnection(listener) {
      connectionListeners.add(listener)
      listener(state)
      return () => connectionListeners.delete(listener)
    }
  }
}
