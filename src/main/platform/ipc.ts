// Only types come from 'electron' here: the caller passes ipcMain in, so this adapter runs (and is
// tested) in plain Node.
import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import { IPC_CHANNEL, IPC_EVENT_CHANNEL, type EventEnvelope, type RpcResult } from '../../shared/contract'
import type { Logger } from '../services/service-deps'
import type { EventHub } from '../transport/event-hub'
import { createIpcDispatch } from '../transport/ipc-dispatch'
import type { Router } from '../transport/router'

export interface IpcAdapterOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>
  router: Router
  events: EventHub
  /** Is this URL our own renderer page (see url-policy.ts)? */
  isAppUrl(url: string): boolean
  log: Logger
}

export interface IpcAdapter {
  /** Trusts this window's main frame and forwards every event to it until it is destroyed. */
  attach(contents: WebContents): () => void
  /** Removes the handler and every subscription. */
  dispose(): void
}

function isMainFrameOf(frame: WebFrameMain, contents: WebContents): boolean {
  if (frame.parent !== null) return false
  const main = contents.mainFrame
  return frame === main || (frame.processId === main.processId && frame.routingId === main.routingId)
}

/**
 * The Electron transport: ONE `ipcMain.handle` channel carrying `(route, input)` to the router, and
 * the event hub pushed to every attached window. A request is served only when it comes from the
 * main frame of a window we created, showing our own page; anything else (an iframe, a window that
 * somehow navigated away, a webContents we never attached) gets `unauthorized`. Never throws.
 */
export function createIpcAdapter(options: IpcAdapterOptions): IpcAdapter {
  const { ipcMain, router, events, isAppUrl, log } = options
  const attached = new Map<WebContents, () => void>()

  const untrustedBecause = (event: IpcMainInvokeEvent): string | null => {
    try {
      const frame = event.senderFrame
      if (!frame) return 'The requesting page is gone.'
      if (!attached.has(event.sender)) return 'The request did not come from a Distill window.'
      if (!isMainFrameOf(frame, event.sender)) return 'Only the Distill page itself may call the app.'
      if (!isAppUrl(frame.url)) return 'The requesting page is not Distill.'
      return null
    } catch {
      // A frame disposed while we looked at it.
      return 'The requesting page is gone.'
    }
  }

  const dispatch = createIpcDispatch<IpcMainInvokeEvent>({
    router,
    isTrustedSender: (event) => {
      const denied = untrustedBecause(event)
      if (denied) log.warn(`IPC request refused: ${denied}`)
      return denied === null
    }
  })

  ipcMain.handle(IPC_CHANNEL, async (event, route: unknown, input: unknown): Promise<RpcResult<unknown>> => {
    try {
      return await dispatch(event, route, input)
    } catch (err) {
      // The router never throws; this guards the adapter's own code.
      log.error('IPC request failed', err)
      return {
        ok: false,
        error: { code: 'internal', message: 'Something went wrong inside Distill. The details are in the log.' }
      }
    }
  })

  const attach = (contents: WebContents): (() => void) => {
    const existing = attached.get(contents)
    if (existing) return existing
    const unsubscribe = events.subscribe((envelope: EventEnvelope) => {
      if (contents.isDestroyed()) return
      // Never hand events to a page that is not ours (navigation is blocked, this is the backstop).
      if (!isAppUrl(contents.getURL())) return
      contents.send(IPC_EVENT_CHANNEL, envelope)
    })
    let detached = false
    const detach = () => {
      if (detached) return
      detached = true
      unsubscribe()
      attached.delete(contents)
    }
    attached.set(contents, detach)
    contents.once('destroyed', detach)
    return detach
  }

  return {
    attach,
    dispose() {
      ipcMain.removeHandler(IPC_CHANNEL)
      for (const detach of [...attached.values()]) detach()
    }
  }
}
