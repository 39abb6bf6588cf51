import type { ModelMessage } from 'ai'
import { buildContext, SUMMARY_PREFIX, type BuiltContext } from '../../engine/build-context'
import type { RecallPlan } from '../../engine/recall/plan-recall'
import { toModelMessages } from '../../providers/to-model-messages'
import type { Conversation } from './conversation'

export interface ModelRequest {
  system?: string
  messages: ModelMessage[]
  /**
   * How many of `messages` are the stable part (summary, pinned block, retained history): the next
   * request starts with the same ones. The rest is this turn's: the pending message, with the
   * recalled passages as its last text part.
   */
  stableMessages: number
  /** The pending message's last text part is the recalled passages. */
  recalled: boolean
  /**
   * Where the summary message (`messages[index]`) may be split into blocks for a prompt cache: the
   * starts of the parts appended to earlier summaries, each of which an earlier request ended with.
   */
  summarySplits?: { index: number; at: number[] }
  context: BuiltContext
  /** Summarized originals this request carries again (empty when recall found nothing or gave way). */
  recalledIds: string[]
  /** The pending message, when it was larger than the window allows and goes out cut in the middle. */
  inputCut?: { id: string; tokens: number }
  /**
   * Messages after the summary's cutoff that this request does not carry, oldest first: only when
   * the history does not fit and no compression made it fit (auto-compression off, or it failed).
   * The chat says so; nothing else may leave a request.
   */
  leftOut?: { messages: number; beforeSeq: number }
}

/**
 * The request's tail, and before it the pinned messages after the cutoff that are older than the
 * tail: the context builder sends those in the pinned block (they are the oldest history, which
 * does not fit), so no pin is left out with the oldest messages.
 */
function withOlderPins(conv: Conversation, pendingId: string | undefined) {
  const tail = conv.requestTail()
  if (conv.pinned.inHistory.length === 0) return tail
  const inTail = new Set(tail.map((m) => m.id))
  const older = conv.pinned.inHistory.filter(
    (m) => !inTail.has(m.id) && m.id !== pendingId && m.seq < (tail[0]?.seq ?? Infinity)
  )
  return older.length ? [...older, ...tail] : tail
}

/** The summary's appended parts as split points of its message, when it is sent whole. */
function splitsOf(conv: Conversation, content: string, index: number): ModelRequest['summarySplits'] {
  const summary = conv.summary?.content
  if (!summary?.appendedAt?.length || content !== SUMMARY_PREFIX + summary.summaryText) return undefined
  const at = summary.appendedAt.filter((n) => n > 0 && n < summary.summaryText.length)
  return at.length ? { index, at: at.map((n) => SUMMARY_PREFIX.length + n) } : undefined
}

/** Appends a text part to the last user message from `from` on (a user message of its own when there is none). */
function withTrailingText(messages: ModelMessage[], from: number, text: string): void {
  const at = messages.findLastIndex((m, i) => i >= from && m.role === 'user')
  const target = at >= 0 ? messages[at] : undefined
  if (!target || target.role !== 'user') {
    messages.push({ role: 'user', content: [{ type: 'text', text }] })
    return
  }
  const parts = typeof target.content === 'string' ? [{ type: 'text' as const, text: target.content }] : target.content
  messages[at] = { ...target, content: [...parts, { type: 'text', text }] }
}

/**
 * What a reply is asked with (FR-1.5.1): the system prompt, the active summary as a system message,
 * the retained messages in their stored form, and the pending input — cut or trimmed by the engine
 * only when it would not fit.
 */
export function buildModelRequest(conv: Conversation, recall?: RecallPlan): ModelRequest {
  // Only the newest messages that can fit are read: the request does not grow with the chat.
  const pending = conv.pending
  const context = buildContext({
    system: conv.session.systemPrompt ? { text: conv.session.systemPrompt, tokens: conv.systemTokens } : undefined,
    summary: conv.summary
      ? { id: conv.summary.id, text: SUMMARY_PREFIX + conv.summary.content.summaryText, tokens: conv.summaryTokens }
      : undefined,
    pinned: conv.pinned.text
      ? { text: conv.pinned.text, tokens: conv.pinned.blockTokens, pins: conv.pinned.blockPins }
      : undefined,
    pinnedIds: new Set(conv.pinned.inHistory.map((p) => p.id)),
    recalled: recall?.text ? { text: recall.text, tokens: recall.tokens } : undefined,
    messages: withOlderPins(conv, pending?.id),
    input: pending ? { id: pending.id, text: pending.text, tokens: pending.tokens } : undefined,
    // Counted tokens: the usable budget restated in the unit the messages are counted in.
    usable: conv.budget.countedUsable,
    overheadTokens: conv.overheadTokens,
    countTokens: (text) => conv.countText(text)
  })
  const stored = conv.loadMessages(
    context.messages.flatMap((m) => (m.kind === 'message' ? [m.sourceId!] : m.kind === 'input' ? [pending!.id] : []))
  )
  let system: string | undefined
  const messages: ModelMessage[] = []
  let stableMessages = 0
  let recalled: string | undefined
  let summarySplits: ModelRequest['summarySplits']
  for (const part of context.messages) {
    if (part.kind === 'system') {
      system = part.content
    } else if (part.kind === 'summary' || part.kind === 'pinned') {
      if (part.kind === 'summary') summarySplits = splitsOf(conv, part.content, messages.length)
      messages.push({ role: 'system', content: part.content })
    } else if (part.kind === 'recalled') {
      recalled = part.content
    } else {
      const id = part.kind === 'input' ? pending!.id : part.sourceId!
      const original = stored.get(id)!
      if (part.truncatedChars === undefined) {
        messages.push(...toModelMessages([original]))
      } else if (original.role === 'tool') {
        // A cut tool result keeps its call id so the exchange stays valid.
        const result = original.parts.find((p) => p.type === 'tool-result')
        messages.push(
          ...toModelMessages([{ role: 'tool', parts: result ? [{ ...result, output: part.content }] : [] }])
        )
      } else {
        messages.push({
          role: original.role === 'assistant' ? 'assistant' : original.role === 'system' ? 'system' : 'user',
          content: part.content
        })
      }
    }
    if (part.kind !== 'input' && part.kind !== 'recalled') stableMessages = messages.length
  }
  // Recalled passages ride at the end of the pending message: what differs from the next request
  // comes last, and the message's own text before them is part of the next request's prefix.
  if (recalled !== undefined) withTrailingText(messages, stableMessages, recalled)
  const recalledIds = context.messages.some((m) => m.kind === 'recalled') ? (recall?.messageIds ?? []) : []
  const input = context.messages.find((m) => m.kind === 'input')
  const inputCut =
    pending && input?.truncatedChars
      ? { id: pending.id, tokens: Math.max(1, pending.tokens - input.tokens) }
      : undefined
  const sentHistory = context.messages.filter((m) => m.kind === 'message').length
  // Pinned messages among the oldest went in the pinned block: sent, not left out.
  const leftOutCount = conv.historyCount - (pending ? 1 : 0) - sentHistory - context.pinnedMoved
  const leftOut =
    leftOutCount > 0
      ? { messages: leftOutCount, beforeSeq: context.firstSentSeq ?? pending?.seq ?? Number.MAX_SAFE_INTEGER }
      : undefined
  return {
    system,
    messages,
    stableMessages,
    recalled: recalled !== undefined,
    ...(summarySplits ? { summarySplits } : {}),
    context,
    recalledIds,
    ...(inputCut ? { inputCut } : {}),
    ...(leftOut ? { leftOut } : {})
  }
}
