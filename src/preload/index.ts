import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { DistillBridge } from '../shared/contract/bridge'
import type { EventEnvelope, RpcResult } from '../shared/contract'

// The same strings as IPC_CHANNEL and IPC_EVENT_CHANNEL in src/shared/contract/index.ts, inlined so
// the sandboxed preload does not bundle the contract's zod schemas (platform/ipc.test.ts checks they match).
const IPC_CHANNEL = 'distill:rpc'
const IPC_EVENT_CHANNEL = 'distill:event'

const refuse = (message: string): Promise<RpcResult<unknown>> =>
  Promise.resolve({ ok: false, error: { code: 'invalid_input', message } })

/** Exactly two functions; no Electron or Node object ever reaches the page. */
const bridge: DistillBridge = {
  request(route, input) {
    if (typeof route !== 'string' || route.length === 0) return refuse('The route must be a non-empty string.')
    return ipcRenderer.invoke(IPC_CHANNEL, route, input).catch((err: unknown): RpcResult<unknown> => ({
      ok: false,
      // e.g. an input that cannot be cloned, or the main process is shutting down
      error: {
        code: 'internal',
        message: `The request could not reach Distill: ${err instanceof Error ? err.message : String(err)}`
      }
    })) as Promise<RpcResult<unknown>>
  },
  subscribe(listener) {
    if (typeof listener !== 'function') throw new TypeError('subscribe() needs a function.')
    const handler = (_event: IpcRendererEvent, envelope: EventEnvelope) => listener(envelope)
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler)
    }
  }
}

contextBridge.exposeInMainWorld('distill', bridge)
