import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * Watches the event loop until the returned function is called, which gives the longest stall seen in
 * ms: the longest gap of a 1 ms timer past its due time, or perf_hooks' own histogram if it saw more.
 */
export function watchLoop(): () => number {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  let longest = 0
  let last = performance.now()
  let running = true
  const tick = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last - 1)
    last = now
    if (running) setTimeout(tick, 1)
  }
  setTimeout(tick, 1)
  return () => {
    running = false
    histogram.disable()
    return Math.max(longest, histogram.max / 1e6)
  }
}
