import { connectBrowser, type BrowserAuthFailure } from './browser-transport'
import { installTransport } from './client'
import { createElectronTransport } from './electron-transport'
import type { Transport } from './transport'

export type ConnectResult = { ok: true } | { ok: false; reason: BrowserAuthFailure }

const FIRST_OPEN_TIMEOUT_MS = 3_000

/** Resolves once the event stream is open (or after a short wait), so no event is missed between the first loads and the stream. */
function waitForEvents(transport: Transport): Promise<void> {
  return new Promise((resolve) => {
    let unsubscribe: () => void = () => {}
    const timer = setTimeout(() => {
      unsubscribe()
      resolve()
    }, FIRST_OPEN_TIMEOUT_MS)
    unsubscribe = transport.onConnection((state) => {
      if (state !== 'open') return
      clearTimeout(timer)
      queueMicrotask(() => unsubscribe())
      resolve()
    })
  })
}

/** Picks the transport: the preload's bridge in Electron, fetch + EventSource in browser mode. */
export async function connect(): Promise<ConnectResult> {
  if (window.distill) {
    installTransport(createElectronTransport(window.distill))
    return { ok: true }
  }
  const result = await connectBrowser()
  if (!result.ok) return result
  await waitForEvents(result.transport)
  installTransport(result.transport)
  return { ok: true }
}
