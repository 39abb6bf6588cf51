import { useSyncExternalStore } from 'react'

const TICK_MS = 30_000
const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) clearInterval(timer)
  }
}

function snapshot(): number {
  return now
}

/** The current time, refreshed every 30 seconds, for relative timestamps. One timer for the whole app. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot)
}

/** Refresh the shared clock right away (after something new happened). */
export function touchNow(): void {
  now = Date.now()
  for (const l of listeners) l()
}
