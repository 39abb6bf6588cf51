/**
 * ADR 033's HistoryCompressor operations on plain state: add a message (opening a new topic at a
 * boundary) and seal the current topic. Each returns a new state; the input is never modified.
 */
import type { EngineMessage } from '../../types'
import { isTopicBoundary, type BoundaryDecision } from './boundary'
import { DEFAULT_TIERED_CONFIG, type TieredConfig } from './config'
import type { BoundaryReason, TieredState, Topic } from './types'
import { topicTokens } from './view'

export const EMPTY_TOPIC_ID = 'topic-empty'

export function emptyTopic(): Topic {
  return { id: EMPTY_TOPIC_ID, messages: [], sealed: false, firstSeq: 0, lastSeq: 0 }
}

export function emptyTieredState(): TieredState {
  return { current: emptyTopic(), topics: [], bulks: [] }
}

/** Topic ids derive from their first message, so a replay of the same chat yields the same ids. */
export const topicIdFor = (m: EngineMessage) => `topic-${m.id}`

/** The UI's "New topic" (and every other boundary): the current topic joins the historical ones. */
export function sealCurrentTopic(state: TieredState, reason: BoundaryReason = 'user'): TieredState {
  if (state.current.messages.length === 0) return state
  return {
    ...state,
    current: emptyTopic(),
    topics: [...state.topics, { ...state.current, sealed: true, sealedBy: reason }]
  }
}

export interface AddMessageContext {
  /** The history budget the state is compressed to; the current topic's allocation is its share. */
  historyTokens: number
  config?: TieredConfig
}

export function currentAllocation(historyTokens: number, config: TieredConfig): number {
  return Math.floor(Math.max(0, historyTokens) * config.tiers.currentTopic)
}

/** Whether `message` would open a new topic in `state` (addMessage records the reason as `sealedBy`). */
export function boundaryFor(state: TieredState, message: EngineMessage, ctx: AddMessageContext): BoundaryDecision {
  const config = ctx.config ?? DEFAULT_TIERED_CONFIG
  return isTopicBoundary({
    message,
    previous: state.current.messages.at(-1),
    currentTopicTokens: topicTokens(state.current),
    allocation: currentAllocation(ctx.historyTokens, config),
    config
  })
}

/** Appends a message to the current topic, first sealing it when the message opens a new one. */
export function addMessage(state: TieredState, message: EngineMessage, ctx: AddMessageContext): TieredState {
  const boundary = boundaryFor(state, message, ctx)
  const base = boundary.boundary ? sealCurrentTopic(state, boundary.reason) : state
  const cur = base.current
  const current: Topic =
    cur.messages.length === 0
      ? { ...cur, id: topicIdFor(message), messages: [message], firstSeq: message.seq, lastSeq: message.seq }
      : { ...cur, messages: [...cur.messages, message], lastSeq: message.seq }
  return { current, topics: base.topics, bulks: base.bulks }
}
