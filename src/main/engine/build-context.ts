import { allowedBoundaries } from './retention'
import { truncateMiddle } from './truncate'
import { pinnedBlockText, type PinnedText } from './pinned'
import type { CountTokens, EngineMessage, EngineRole } from './types'

/** A single message may take at most this share of the usable budget before it is cut in the middle. */
export const LARGE_MESSAGE_SHARE = 0.5

export type ContextPartKind = 'system' | 'summary' | 'pinned' | 'recalled' | 'message' | 'input'

export interface ContextMessage {
  kind: ContextPartKind
  role: EngineRole
  content: string
  tokens: number
  /** The stored message this stands for (summary: the snapshot id). */
  sourceId?: string
  /** Characters cut from the middle, when the message was too large. */
  truncatedChars?: number
}

export interface ContextPart {
  id?: string
  text: string
  tokens: number
}

export interface BuildContextInput {
  system?: ContextPart
  /** The latest active summary, sent as a system message (FR-1.5.1). */
  summary?: ContextPart
  /** Pinned messages older than the summary's cutoff, one system message after it (`pinned.ts`): never dropped. */
  pinned?: ContextPart & { pins: readonly PinnedText[] }
  /** History messages that are pinned: when the oldest history must go, these join the pinned block instead. */
  pinnedIds?: ReadonlySet<string>
  /**
   * Summarized originals recalled for the pending input (DESIGN §11). They change from turn to turn,
   * so they go after the history, beside the input: everything before them is a prefix the next
   * request repeats, which is what a provider's prompt cache serves.
   */
  recalled?: ContextPart
  /** The retained history, oldest first. */
  messages: readonly EngineMessage[]
  input?: ContextPart
  /** U: what the messages may use in total. */
  usable: number
  overheadTokens: number
  countTokens: CountTokens
}

export interface BuiltContext {
  messages: ContextMessage[]
  tokens: number
  breakdown: Record<ContextPartKind, number> & { overhead: number }
  /** Messages cut in the middle to fit. */
  truncated: number
  /** Oldest history messages left out because even truncation could not make room (rare: compression failed or is off). */
  dropped: number
  /** The oldest history message sent, when older ones were left out. */
  firstSentSeq?: number
  /** Pinned history messages that moved into the pinned block because older history had to go. */
  pinnedMoved: number
  fits: boolean
  /**
   * Tokens of the stable part (system prompt, summary, pinned block, retained history): what the next
   * request repeats word for word unless a compression, an edit or a model switch comes between.
   */
  stableTokens: number
}

export const SUMMARY_PREFIX =
  'Summary of the earlier conversation (older messages were compressed; details may be missing):\n\n'

/** The parts a request repeats from the one before while nothing is compressed, edited or switched. */
const STABLE: ReadonlySet<ContextPartKind> = new Set(['system', 'summary', 'pinned', 'message'])

function entry(kind: ContextPartKind, role: EngineRole, part: ContextPart, sourceId?: string): ContextMessage {
  return { kind, role, content: part.text, tokens: part.tokens, ...(sourceId ? { sourceId } : {}) }
}

/** The largest cap c with sum(min(tokens_i, c)) ≤ room: cut only the biggest items, all to the same size. */
function waterLevel(tokens: readonly number[], room: number): number {
  const sorted = [...tokens].sort((a, b) => a - b)
  let remaining = room
  for (let i = 0; i < sorted.length; i++) {
    const left = sorted.length - i
    if (sorted[i]! * left > remaining) return Math.floor(remaining / left)
    remaining -= sorted[i]!
  }
  return Number.POSITIVE_INFINITY
}

function dropRecalled(items: ContextMessage[]): void {
  const at = items.findIndex((m) => m.kind === 'recalled')
  if (at >= 0) items.splice(at, 1)
}

/**
 * Assembles what the model receives (FR-1.5.1): system prompt, the summary as a system message, the
 * pinned block, the retained messages in order, then what this turn adds (recalled passages and the
 * pending input), and proves it fits the usable budget. Large
 * messages are cut in the middle with a [...N...] marker; when that is not enough the oldest history
 * goes (never splitting a tool call from its result); the pending input is never dropped.
 */
export function buildContext(input: BuildContextInput): BuiltContext {
  const { countTokens } = input
  const room = Math.max(0, input.usable - input.overheadTokens)
  // History older than a newest run that alone fills the room (each message counted at most at its
  // large-message cap) is dropped below in any case: leave it out before reading its text.
  let first = 0
  let newest = 0
  for (let i = input.messages.length - 1; i >= 0; i--) {
    newest += Math.min(input.messages[i]!.tokens, Math.floor(room * LARGE_MESSAGE_SHARE))
    if (newest > room) {
      first = i + 1
      break
    }
  }
  // Tool exchanges are checked only over the messages that may be sent (allowed[k]: boundary first + k).
  // Once anything is left out, the history sent must also start with a user turn: a reply whose
  // question is neither sent nor summarized would be an orphan.
  let allowed = allowedBoundaries(input.messages, first)
  const startsTurn = (k: number) =>
    allowed[k] && (first + k >= input.messages.length || input.messages[first + k]!.role === 'user')
  let skip = 0
  while (first > 0 && first + skip < input.messages.length && !startsTurn(skip)) skip++
  first += skip
  allowed = allowed.slice(skip)
  const history = input.messages.slice(first)
  const items: ContextMessage[] = [
    ...(input.system ? [entry('system', 'system', input.system)] : []),
    ...(input.summary ? [entry('summary', 'system', input.summary, input.summary.id)] : []),
    ...(input.pinned?.text ? [entry('pinned', 'system', input.pinned)] : []),
    ...history.map((m) => entry('message', m.role, { text: m.text, tokens: m.tokens }, m.id)),
    // What changes every turn comes last, so the stable part before it stays a cacheable prefix.
    ...(input.recalled?.text ? [entry('recalled', 'user', input.recalled)] : []),
    ...(input.input ? [entry('input', 'user', input.input)] : [])
  ]
  const total = () => items.reduce((s, m) => s + m.tokens, 0)
  let truncated = 0
  const cut = (m: ContextMessage, cap: number) => {
    if (m.tokens <= cap) return
    const text = truncateMiddle(m.content, cap, countTokens)
    m.truncatedChars = m.content.length - text.length + (m.truncatedChars ?? 0)
    m.content = text
    m.tokens = countTokens(text)
    truncated++
  }

  // 0. Recall only fills free room: when the rest does not fit, it goes first.
  if (total() > room) dropRecalled(items)

  // 1. Large messages: none may take more than its share of the budget.
  // Pinned text stays word for word: it is held under a share of the budget when pinned.
  const isPinned = (m: ContextMessage) =>
    m.kind === 'pinned' || (m.kind === 'message' && !!input.pinnedIds?.has(m.sourceId!))
  if (total() > room) for (const m of items) if (!isPinned(m)) cut(m, Math.floor(room * LARGE_MESSAGE_SHARE))

  // 2. Drop the oldest history, whole tool exchanges at a time, while it does not fit.
  let dropped = first
  if (total() > room) {
    const kept = items.filter((m) => m.kind === 'message')
    let over = total() - room
    let drop = 0
    const turnStart = (k: number) => allowed[k] && kept[k]!.role === 'user'
    // A pinned message frees nothing: it moves into the pinned block.
    const freed = (m: ContextMessage) => (isPinned(m) ? 0 : m.tokens)
    while (drop < kept.length && over > 0) {
      over -= freed(kept[drop]!)
      drop++
      while (drop < kept.length && !turnStart(drop)) {
        over -= freed(kept[drop]!)
        drop++
      }
    }
    const gone = new Set(kept.slice(0, drop))
    for (let i = items.length - 1; i >= 0; i--) if (gone.has(items[i]!)) items.splice(i, 1)
    dropped += gone.size
  }
  // Pinned messages among the history left out are sent all the same, in the pinned block.
  const sent = new Set(items.flatMap((m) => (m.kind === 'message' ? [m.sourceId!] : [])))
  const moved = input.pinnedIds?.size ? input.messages.filter((m) => input.pinnedIds!.has(m.id) && !sent.has(m.id)) : []
  if (moved.length > 0) {
    dropped -= moved.length
    const text = pinnedBlockText([...(input.pinned?.pins ?? []), ...moved.map((m) => ({ role: m.role, text: m.text }))])
    const block = entry('pinned', 'system', { text, tokens: countTokens(text) })
    const at = items.findIndex((m) => m.kind === 'pinned')
    if (at >= 0) items[at] = block
    else items.splice(items.filter((m) => m.kind === 'system' || m.kind === 'summary').length, 0, block)
  }

  // 3. Still too big (huge system prompt, summary or input): cut the largest remaining items evenly.
  if (total() > room) {
    const level = waterLevel(
      items.map((m) => m.tokens),
      room
    )
    for (const m of items) cut(m, level)
    // Counting after a cut can exceed the cap by a token or two: tighten until it fits.
    for (let guard = 0; total() > room && guard < 20; guard++) {
      const largest = items.reduce((a, b) => (b.tokens > a.tokens ? b : a))
      cut(largest, Math.max(0, largest.tokens - (total() - room)))
    }
  }

  const breakdown = {
    system: 0,
    summary: 0,
    pinned: 0,
    recalled: 0,
    message: 0,
    input: 0,
    overhead: input.overheadTokens
  }
  for (const m of items) breakdown[m.kind] += m.tokens
  const tokens = total() + input.overheadTokens
  const stableTokens = items.reduce((s, m) => (STABLE.has(m.kind) ? s + m.tokens : s), 0)
  const firstItem = dropped > 0 ? items.find((i) => i.kind === 'message') : undefined
  const firstSent = firstItem ? input.messages.find((m) => m.id === firstItem.sourceId) : undefined
  return {
    messages: items,
    tokens,
    breakdown,
    truncated,
    dropped,
    ...(firstSent ? { firstSentSeq: firstSent.seq } : {}),
    pinnedMoved: moved.length,
    fits: tokens <= input.usable,
    stableTokens
  }
}
