import type { EngineMessage } from './types'

/**
 * Where a suffix may start without separating a tool call from its result: boundary i is allowed
 * when no call made before i has its result at or after i.
 */
export function allowedBoundaries(messages: readonly EngineMessage[]): boolean[] {
  const callAt = new Map<string, number>()
  messages.forEach((m, i) => m.toolCallIds?.forEach((id) => callAt.set(id, i)))
  // blockedFrom[i]++ / blockedTo[j]-- marks the open intervals (call, result] as forbidden starts.
  const delta = new Array<number>(messages.length + 1).fill(0)
  messages.forEach((m, j) =>
    m.toolResultIds?.forEach((id) => {
      const i = callAt.get(id)
      if (i !== undefined && i < j) {
        delta[i + 1]!++
        delta[j + 1]!--
      }
    })
  )
  const allowed: boolean[] = []
  let open = 0
  for (let i = 0; i <= messages.length; i++) {
    open += delta[i]!
    allowed.push(open === 0)
  }
  return allowed
}

/**
 * FR-1.3.4: the index where the retained suffix starts: the longest run of most recent messages
 * whose tokens total at most `retentionTokens`, never splitting a tool call from its result.
 * Returns messages.length when nothing fits.
 */
export function retentionStart(messages: readonly EngineMessage[], retentionTokens: number): number {
  const allowed = allowedBoundaries(messages)
  let start = messages.length
  let total = 0
  for (let i = messages.length - 1; i >= 0; i--) {
    total += messages[i]!.tokens
    if (total > retentionTokens) break
    if (allowed[i]) start = i
  }
  return start
}
