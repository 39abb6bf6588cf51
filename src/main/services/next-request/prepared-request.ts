import type { CompressionService } from '../compression/compression-service'
import type { RecallService } from '../recall/recall-service'
import { buildModelRequest, type ModelRequest } from '../conversation/request-builder'
import type { UsageService } from '../conversation/usage-service'

/** What a reply is asked with, and what the chat needs to say about it. */
export interface PreparedRequest extends Pick<
  ModelRequest,
  'system' | 'messages' | 'stableMessages' | 'recalled' | 'summarySplits' | 'inputCut' | 'leftOut'
> {
  /** The reply gets what the budget reserved for it, so request + reply fit the window. */
  maxOutputTokens: number
  /** Counted tokens of the request, for calibration against the provider's reported usage. */
  sentTokens: number
  /** The model keeps a prompt cache for 24 hours when asked (OpenAI). */
  extendedCacheRetention: boolean
}

/**
 * The step between a stored message and the provider (FR-1.2, FR-1.5.1, DESIGN §11), in order:
 * 1. compress when the context would pass the threshold (waiting for a running compression; a send
 *    never waits for a model summary: a prepared one or the quick offline one goes in);
 * 2. read the chat as the request sees it (the one budget model: `usage.conversation`);
 * 3. recall summarized originals the pending message is about, into the room left;
 * 4. build the request: system prompt, summary, pinned block, retained messages, then the message
 *    with the recalled passages (what changes per turn last, for the prompt cache).
 */
export function createRequestPreparer(deps: {
  compression: CompressionService
  usage: UsageService
  recall: RecallService
}) {
  return async function prepareRequest(sessionId: string, replySeq: number): Promise<PreparedRequest> {
    await deps.compression.beforeRequest(sessionId, replySeq)
    const conv = deps.usage.conversation(sessionId, replySeq)
    const request = buildModelRequest(conv, deps.recall.forRequest(conv))
    // The marks in the chat and in full history say what this reply's request recalled.
    deps.recall.rememberFor(sessionId, replySeq, request.recalledIds)
    return {
      system: request.system,
      messages: request.messages,
      stableMessages: request.stableMessages,
      recalled: request.recalled,
      ...(request.summarySplits ? { summarySplits: request.summarySplits } : {}),
      ...(request.inputCut ? { inputCut: request.inputCut } : {}),
      ...(request.leftOut ? { leftOut: request.leftOut } : {}),
      maxOutputTokens: conv.budget.reservedOutput,
      sentTokens: request.context.tokens,
      extendedCacheRetention: conv.spec.extendedCacheRetention
    }
  }
}
