import type { EventEnvelope, RpcResult } from './index'

/**
 * What the preload exposes on `window.distill`, and what the browser-mode transport implements
 * with fetch + EventSource. Deliberately untyped per route: the renderer's api client adds the types.
 */
export interface DistillBridge {
  request(route: string, input: unknown): Promise<RpcResult<unknown>>
  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: (envelope: EventEnvelope) => void): () => void
}
