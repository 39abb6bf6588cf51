/// <reference types="vite/client" />
import type { DistillBridge } from '../../shared/contract/bridge'

declare global {
  interface Window {
    /** Set by the preload script in Electron; absent in browser mode. */
    distill?: DistillBridge
  }
}
