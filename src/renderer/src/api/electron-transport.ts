import type { DistillBridge } from '../../../shared/contract/bridge'
import type { Transport } from './transport'

/** Electron: the preload's `window.distill`, which already speaks the bridge. */
export function createElectronTransport(bridge: DistillBridge): Transport {
  return {
    mode: 'electron',
    request: (route, input) => bridge.request(route, input),
    subscribe: (listener) => bridge.subscribe(listener),
    onConnection: (listener) => {
      listener('open')
      return () => {}
    }
  }
}
