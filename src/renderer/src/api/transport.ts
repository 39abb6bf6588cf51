import type { DistillBridge } from '../../../shared/contract/bridge'

export type ConnectionState = 'connecting' | 'open' | 'lost'

/**
 * A bridge plus what only some transports know: the state of the event stream. Electron's IPC never
 * drops events, so its transport reports 'open' once and never changes.
 */
export interface Transport extends DistillBridge {
  readonly mode: 'electron' | 'browser'
  /** Called with every change of the event stream's state; returns the unsubscribe function. */
  onConnection(listener: (state: ConnectionState) => void): () => void
}
