import type { EngineMessage } from './types'

/**
 * Where a suffix may start without separating a tool call from its result: boundary i is allowed
 * when no call made before i has its result at or after i. Only boundaries from `from` on are
 * computed (entry k stands for boundary from + k), so a caller that looks at the newest messages
 * pays for those, not for the whole history.
 */
export function allowedBoundaries(messages: readonly EngineMessage[], from = 0): boolean[] {
  const n = messages.length
  const start = Math.max(0, Math.min(from, n))
  // The newest call with each id, among the suffix; calls older than it are looked up only for
  // results in the suffix that need them.
  const callAt = new Map<string, number>()
  const pending = new Set<string>()
  for (let i = start; i < n; i++) messages[i]!.toolCallIds?.forEach((id) => callAt.set(id, i))
  for (let j = start; j < n; j++)
    messages[j]!.toolResultIds?.forEach((id) => (callAt.has(id) ? undefined : pending.add(id)))
  for (let i = start - 1; i >= 0 && pending.size > 0; i--) {
    messages[i]!.toolCallIds?.forEach((id) => {
      if (pending.delete(id)) callAt.set(id, i)
    })
  }
  // delta marks the open intervals (call, result] as forbidden starts; a typed array stays fast at
  // any length (a plain `new Array(n)` this large is a slow dictionary in V8).
  const delta = new Int32Array(n - start + 2)
  for (let j = start; j < n; j++) {
    messages[j]!.toolResultIds?.forEach((id) => {
      const i = callAt.get(id)
      if (i !== undefined && i < j) {
        delta[Math.max(i + 1, start) - start]!++
        delta[j + 1 - start]!--
      }
    })
  }
  // Filled at full length at once: growing a 100,000-entry array by push costs far more.
  const allowed = new Array<boolean>(n - start + 1).fill(true)
  let open = 0
  for (let k = 0; k <= n - start; k++) {
    open += delta[k]!
    if (open !== 0) allowed[k] = false
  }
  return allowed
}

/**
 * FR-1.3.4: the index where the retained suffix starts: the longest run of most recent messages
 * whose tokens total at most `retentionTokens`, never splitting a tool call from its result.
 * Returns messages.length when nothing fits. Reads only the messages the suffix may hold.
 */
export function retentionStart(messages: readonly EngineMessage[], retentionTokens: number): number {
  let oldest = messages.length
  let total = 0
  while (oldest > 0 && total + messages[oldest - 1]!.tokens <= retentionTokens) {
    total += messages[oldest - 1]!.tokens
    oldest--
  }
  const allowed = allowedBoundaries(messages, oldest)
  let start = messages.length
  for (let i = messages.length - 1; i >= oldest; i--) if (allowed[i - oldest]) start = i
  return start
}
