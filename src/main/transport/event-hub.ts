import type { EventEnvelope, EventName, EventPayload } from '../../shared/contract'

export type EventListener = (envelope: EventEnvelope) => void

export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  subscribe(listener: EventListener): () => void
}

/** Fans main-process events out to every connected renderer (IPC windows, SSE clients). */
export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>()
  return {
    emit(event, payload) {
      const envelope = { event, payload } as EventEnvelope
      for (const listener of listeners) {
        try {
          listener(envelope)
        } catch {
          // A broken connection must not stop the others from hearing the event.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
