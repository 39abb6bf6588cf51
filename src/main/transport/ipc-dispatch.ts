import type { RpcResult } from '../../shared/contract'
import type { Router } from './router'

/**
 * The IPC adapter's logic without Electron: refuse untrusted senders, refuse a non-string route,
 * otherwise hand the call to the router. platform/ipc.ts wires it to ipcMain.handle.
 */
export function createIpcDispatch<Sender>(options: {
  router: Router
  isTrustedSender: (sender: Sender) => boolean
}): (sender: Sender, route: unknown, input: unknown) => Promise<RpcResult<unknown>> {
  return async (sender, route, input) => {
    if (!options.isTrustedSender(sender)) {
      return { ok: false, error: { code: 'unauthorized', message: 'This window may not call Distill.' } }
    }
    if (typeof route !== 'string') {
      return { ok: false, error: { code: 'invalid_input', message: 'The route must be a string.' } }
    }
    return options.router.call(route, input)
  }
}
