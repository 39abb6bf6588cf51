import type { Session } from '../../../shared/domain/session'
import type { Db } from '../../db/client'
import {
  findMessageParts,
  staleCounted,
  type MessageHead,
  type MessageParts
} from '../../db/repositories/messages/messages-repo'
import type { EngineMessage } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { countMessage, isExactCounter, localCounterFor } from '../../tokens/message-tokens'
import type { MessageTailCache } from './message-tail-cache'

/** A stored message as the engine sees it; its text is read from the database on first use. */
function lazyEngineMessage(head: MessageHead, tokens: number, loadText: () => string): EngineMessage {
  const parts = head.toolParts
  const calls = parts ? parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId) : []
  const results = parts ? parts.filter((p) => p.type === 'tool-result').map((p) => p.toolCallId) : []
  let text: string | undefined
  return {
    id: head.id,
    seq: head.seq,
    role: head.role,
    get text() {
      return (text ??= loadText())
    },
    tokens,
    ...(calls.length ? { toolCallIds: calls } : {}),
    ...(results.length ? { toolResultIds: results } : {}),
    createdAt: head.createdAt
  }
}

/** Counts a text as one message of the model (framing included), locally and at once. */
export function countTextFor(spec: ModelSpec, role: 'system' | 'user', text: string): number {
  return countMessage({ role, parts: [{ type: 'text', text }] }, spec).tokens
}

/** The counters whose stored counts this model can use: its local one and its provider's endpoint. */
export function countersFor(spec: ModelSpec): [string, string] {
  return [localCounterFor(spec), `api:${spec.provider}:${spec.id}`]
}

/** A stored count is usable when it came from the counter this model uses now. */
export function fitsCounter(counter: string | null, spec: ModelSpec): boolean {
  return counter !== null && countersFor(spec).includes(counter)
}

/** Counts scaled from another counter's (until the background recount stores real ones). */
export const SCALED = 'scaled'
/** Messages counted for the model to learn how its counts compare with the stored ones. */
const RATIO_SAMPLE = 48
/** Ratios remembered at most (per chat and counter). */
const RATIO_CACHE_LIMIT = 512

/**
 * Token counts of stored message heads for a model: the stored count where it came from the
 * model's counter, else counted locally, or scaled from another counter's by a sampled ratio.
 */
export function createHeadCounter(db: Db, tail: MessageTailCache) {
  // Per chat and counter: the model's counts over the stored ones, on a sample of the newest messages.
  const ratios = new Map<string, number>()

  /**
   * How this model's counts compare with the counts stored for another tokenizer, from a small
   * sample: the rest of the history is scaled by it until the background recount stores real counts.
   */
  function staleRatio(session: Session, spec: ModelSpec): number {
    const key = `${session.id}|${localCounterFor(spec)}`
    const known = ratios.get(key)
    if (known !== undefined) return known
    const sample = staleCounted(db, session.id, countersFor(spec), RATIO_SAMPLE).filter((s) => s.tokenCount !== null)
    const rows = findMessageParts(
      db,
      sample.map((s) => s.id)
    )
    let stored = 0
    let counted = 0
    for (const s of sample) {
      const row = rows.get(s.id)
      if (!row) continue
      stored += s.tokenCount!
      counted += countMessage({ role: row.role, parts: row.parts }, spec).tokens
    }
    const ratio = stored > 0 ? counted / stored : 1
    if (ratios.size >= RATIO_CACHE_LIMIT) ratios.clear()
    ratios.set(key, ratio)
    return ratio
  }

  /**
   * Heads as engine messages: stored counts where they fit the model; where not, counted locally,
   * or (`ratio`, for a whole history) the stored count scaled to the model's tokenizer.
   */
  function countHeads(
    heads: readonly MessageHead[],
    spec: ModelSpec,
    rowOf: (id: string) => MessageParts,
    ratio?: number
  ) {
    const scale = (h: MessageHead) => ratio !== undefined && h.tokenCount !== null && !fitsCounter(h.tokenCounter, spec)
    const staleIds = heads
      .filter((h) => !scale(h) && (h.tokenCount === null || !fitsCounter(h.tokenCounter, spec)))
      .map((h) => h.id)
    const stale = staleIds.length ? findMessageParts(db, staleIds) : new Map<string, MessageParts>()
    const counters = new Set<string>()
    let exact = true
    const messages = heads.map((h) => {
      const row = stale.get(h.id)
      const counted = row
        ? countMessage({ role: row.role, parts: row.parts }, spec)
        : scale(h)
          ? { tokens: Math.max(1, Math.round(h.tokenCount! * ratio!)), counter: SCALED }
          : { tokens: h.tokenCount!, counter: h.tokenCounter! }
      counters.add(counted.counter)
      if (!isExactCounter(counted.counter)) exact = false
      return lazyEngineMessage(h, counted.tokens, () => tail.textOf(row ?? rowOf(h.id)))
    })
    return { messages, counters, exact, stale: stale.size > 0 || heads.some(scale) }
  }

  return { staleRatio, countHeads }
}

export type HeadCounter = ReturnType<typeof createHeadCounter>
