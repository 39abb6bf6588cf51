import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { Db } from '../../db/client'
import { listPins } from '../../db/repositories/messages/pins-repo'
import { pinnedBlockText, type PinnedText } from '../../engine/pinned'
import type { EngineMessage } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { plainText } from '../../tokens/render'
import { countMessage } from '../../tokens/message-tokens'
import { countTextFor, fitsCounter } from './head-counter'

/**
 * A chat's pinned messages as its next request carries them: those at or before the summary's cutoff
 * as one block after the summary, the newer ones in place (already part of the history's tokens).
 */
export interface PinnedParts {
  /** Pinned messages on the path before `beforeSeq`, oldest first. */
  messages: ChatMessage[]
  /** The pins the summary covers, as the block quotes them. */
  blockPins: PinnedText[]
  /** The block of the pins the summary covers ('' when none). */
  text: string
  /** Counted tokens of that block, system framing included. */
  blockTokens: number
  /** Pins after the cutoff (sent in place), counted as the history counts them. */
  inHistory: EngineMessage[]
  /** Counted tokens of every pin as if all sat in the block: what the share limit compares. */
  allTokens(): number
  /** Counted tokens of the block once a summary covers everything up to `cutoffSeq`. */
  blockTokensUpTo(cutoffSeq: number): number
}

/** Counting the same block again and again is the common case (every meter refresh): remember a few. */
const blockCounts = new Map<string, number>()
const BLOCK_CACHE = 32

function countBlock(spec: ModelSpec, text: string): number {
  if (!text) return 0
  const key = `${spec.provider}:${spec.id}\u0000${text}`
  let tokens = blockCounts.get(key)
  if (tokens === undefined) {
    tokens = countTextFor(spec, 'system', text)
    if (blockCounts.size >= BLOCK_CACHE) blockCounts.delete(blockCounts.keys().next().value!)
    blockCounts.set(key, tokens)
  }
  return tokens
}

const quoted = (pins: readonly ChatMessage[]): PinnedText[] => pins.map((m) => ({ role: m.role, text: plainText(m) }))
const blockOf = (pins: readonly ChatMessage[]) => pinnedBlockText(quoted(pins))

export function readPinned(
  db: Db,
  sessionId: string,
  spec: ModelSpec,
  afterSeq: number,
  beforeSeq: number
): PinnedParts {
  const messages = listPins(db, sessionId).filter((m) => m.seq < beforeSeq)
  const covered = messages.filter((m) => m.seq <= afterSeq)
  const blockPins = quoted(covered)
  const text = pinnedBlockText(blockPins)
  return {
    messages,
    blockPins,
    text,
    blockTokens: countBlock(spec, text),
    inHistory: messages
      .filter((m) => m.seq > afterSeq)
      .map((m) => ({
        id: m.id,
        seq: m.seq,
        role: m.role,
        text: plainText(m),
        createdAt: m.createdAt,
        tokens: m.tokenCount !== null && fitsCounter(m.tokenCounter, spec) ? m.tokenCount : countMessage(m, spec).tokens
      })),
    allTokens: () => countBlock(spec, blockOf(messages)),
    blockTokensUpTo: (cutoffSeq) => countBlock(spec, blockOf(messages.filter((m) => m.seq <= cutoffSeq)))
  }
}
