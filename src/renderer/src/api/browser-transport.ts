import type { EventEnvelope, RpcResult } from '../../../shared/contract'
import { createEventStreamParser } from './event-stream'
import type { ConnectionState, Transport } from './transport'

export const TOKEN_STORAGE_KEY = 'distill.token'
const RETRY_MIN_MS = 1_000
const RETRY_MAX_MS = 30_000

export type BrowserAuthFailure = 'no-token' | 'rejected' | 'unreachable'

export type BrowserConnectResult = { ok: true; transport: Transport } | { ok: false; reason: BrowserAuthFailure }

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

/** Takes the token from the URL fragment (and removes it from the address bar), or from this tab's sessionStorage. */
function takeToken(): { token: string | null } {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token')
  if (fromHash) {
    try {
      sessionStorage.setItem(TOKEN_STORAGE_KEY, fromHash)
    } catch {
      // Storage can be disabled; the token then lives for this page only.
    }
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
    return { token: fromHash }
  }
  let stored: string | null = null
  try {
    stored = sessionStorage.getItem(TOKEN_STORAGE_KEY)
  } catch {
    stored = null
  }
  return { token: stored }
}

function forgetToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_STORAGE_KEY)
  } catch {
    // nothing to forget
  }
}

async function rpc(route: string, input: unknown, token: string): Promise<RpcResult<unknown>> {
  let response: Response
  try {
    response = await fetch(`/rpc/${encodeURIComponent(route)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
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
 * Browser mode: `POST /rpc/:route` and `GET /events`, both with the token as a bearer header. The
 * token lives in memory and in this tab's sessionStorage (so a reload works), never in a cookie:
 * cookies ignore ports and would reach every other server on 127.0.0.1.
 */
export async function connectBrowser(): Promise<BrowserConnectResult> {
  const { token } = takeToken()
  if (!token) return { ok: false, reason: 'no-token' }
  const probe = await rpc('app.info', {}, token)
  if (!probe.ok) {
    if (probe.error.code === 'unavailable') return { ok: false, reason: 'unreachable' }
    if (probe.error.code === 'unauthorized') {
      forgetToken()
      return { ok: false, reason: 'rejected' }
    }
  }
  return { ok: true, transport: createBrowserTransport(token) }
}

function createBrowserTransport(token: string): Transport {
  const listeners = new Set<(envelope: EventEnvelope) => void>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  let state: ConnectionState = 'connecting'
  let retryMs = RETRY_MIN_MS

  function setState(next: ConnectionState): void {
    if (next === state) return
    state = next
    for (const listener of connectionListeners) listener(next)
  }

  function deliver(data: string): void {
    let envelope: unknown
    try {
      envelope = JSON.parse(data)
    } catch {
      return
    }
    if (!isEnvelope(envelope)) return
    for (const listener of listeners) listener(envelope)
  }

  /** One connection to `/events`, read until it ends or fails. */
  async function readOnce(): Promise<void> {
    // EventSource cannot send headers; fetch can, so the token needs no cookie.
    const response = await fetch('/events', {
      headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      cache: 'no-store'
    })
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`)
    retryMs = RETRY_MIN_MS
    setState('open')
    const parser = createEventStreamParser(deliver)
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      parser.feed(value)
    }
  }

  async function run(): Promise<void> {
    for (;;) {
      try {
        await readOnce()
      } catch {
        // Server gone or restarted (a new token): try again, less and less often.
      }
      setState('lost')
      await new Promise((resolve) => setTimeout(resolve, retryMs))
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
    }
  }

  void run()

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
