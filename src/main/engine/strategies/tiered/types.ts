/**
 * The tiered strategy's state (ADR 033 + Agent Zero's History): the current topic with its messages,
 * sealed topics (oldest first) and bulk archives (oldest first). Plain serializable data: the service
 * stores sealed topics and bulks as snapshots of kind 'topic' / 'bulk' and rebuilds the state from them.
 */
import type { EngineMessage, EngineRole } from '../../types'

export type BoundaryReason = 'phrase' | 'silence' | 'size' | 'user'

/**
 * Agent Zero's attention compression: messages[1..covered] (the oldest part of the middle, never the
 * first or the last message) are shown as this one summary. An empty text means they were dropped.
 */
export interface AttentionSummary {
  text: string
  tokens: number
  covered: number
}

/** A large message as the model is shown it (cut in the middle); the stored original is untouched. */
export interface TruncatedView {
  text: string
  tokens: number
  removedChars: number
}

export interface Topic {
  id: string
  /** Verbatim, oldest first: compression never edits them (views live in `attention` / `truncated`). */
  messages: EngineMessage[]
  /** Set once a sealed topic is summarized (escalation step 3); the context then shows only this. */
  summary?: string
  summaryTokens?: number
  sealed: boolean
  /** Why it was sealed. */
  sealedBy?: BoundaryReason
  firstSeq: number
  lastSeq: number
  attention?: AttentionSummary
  /** Message id → what the model is shown instead of the full message. */
  truncated?: Record<string, TruncatedView>
}

export interface Bulk {
  id: string
  summary: string
  tokens: number
  topicIds: string[]
  firstSeq: number
  lastSeq: number
  /** Its last topic was closed by the user ("New topic"): a cascade never merges it with the next bulk. */
  endsAtUserBoundary?: boolean
}

export interface TieredState {
  current: Topic
  /** Sealed topics, oldest first. Summarized ones always form a prefix (step 3 goes oldest first). */
  topics: Topic[]
  /** Bulk archives, oldest first. */
  bulks: Bulk[]
}

export type TieredItemKind = 'bulk' | 'topic-summary' | 'attention' | 'message'

/** One entry of the tiered context, chronological. */
export interface TieredContextItem {
  kind: TieredItemKind
  role: EngineRole
  text: string
  tokens: number
  /** message: its id; attention / topic-summary: the ids of the messages it stands for; bulk: its topic ids. */
  sourceIds: string[]
  firstSeq: number
  lastSeq: number
  /** Topic or bulk it belongs to. */
  groupId: string
  /** Characters cut from the middle of a large message. */
  truncatedChars?: number
}

export type Tier = 'current' | 'topics' | 'bulks'

export type TieredEvent =
  | {
      kind: 'truncate'
      tier: 'current' | 'topics'
      topicId: string
      messageId: string
      tokensBefore: number
      tokensAfter: number
      removedChars: number
    }
  | { kind: 'attention'; topicId: string; messageIds: string[]; tokensBefore: number; tokensAfter: number }
  | { kind: 'topic-summary'; topicId: string; tokensBefore: number; tokensAfter: number }
  | { kind: 'bulk-merge'; bulkId: string; topicIds: string[]; tokensBefore: number; tokensAfter: number }
  | { kind: 'bulk-cascade'; bulkId: string; topicIds: string[]; tokensBefore: number; tokensAfter: number }
  | { kind: 'bulk-drop'; bulkId: string; topicIds: string[]; tokensBefore: number; tokensAfter: 0 }
