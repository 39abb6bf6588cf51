import type { ModelMessage } from 'ai'
import { inChatSummaryPrompt, transcriptLine } from '../../../engine/prompts'
import type { EngineMessage } from '../../../engine/types'
import { withPromptCache } from '../../../providers/prompt-cache'
import { streamReply, type CacheUsage } from '../../../providers/stream-reply'
import { buildModelRequest, type ModelRequest } from '../../conversation/request-builder'
import type { Conversation } from '../../conversation/conversation'
import { SummarizerError, type SummaryStream } from './summarizers'

/**
 * A summary asked inside the chat's own request (issue 34, Claude Code's way): the request is the
 * chat's stable part as its last request sent it (system prompt, summary, pinned block, retained
 * history, the same cache marks), then one instruction to summarize the oldest of those messages.
 * The provider's prompt cache serves all of it but the instruction, where a summary request of its
 * own would be billed whole; and the cache entry it writes is the one the next reply reads.
 */
export interface InChatSummaryRequest {
  system?: string
  messages: ModelMessage[]
  stableMessages: number
  summarySplits?: ModelRequest['summarySplits']
  /** Counted tokens of the whole request. */
  countedTokens: number
}

export interface InChatSummaryAsk {
  /** The messages to summarize: the chat request's oldest history messages, in order. */
  span: readonly EngineMessage[]
  /** 'merge': the active summary is written again with the span; 'append': the span alone. */
  mode: 'merge' | 'append'
  targetTokens: number
}

/** A file part is read from disk right before a reply is sent: a summary request never carries one. */
const hasFile = (m: ModelMessage) => Array.isArray(m.content) && m.content.some((p) => p.type === 'file')

/**
 * The request, or undefined where the chat's request cannot carry it: the span is not its oldest
 * history whole (left out, cut, or a pin moved), a message carries a file, or the summary holds
 * notes the user wrote (a merge would fold them in; they are carried as written).
 */
export function inChatSummaryRequest(conv: Conversation, ask: InChatSummaryAsk): InChatSummaryRequest | undefined {
  const { span } = ask
  if (span.length === 0 || conv.summary?.content.userNotes) return undefined
  const request = buildModelRequest(conv)
  if (request.leftOut) return undefined
  const history = request.context.messages.filter((m) => m.kind === 'message')
  const whole = span.every((m, i) => history[i]?.sourceId === m.id && history[i]?.truncatedChars === undefined)
  if (!whole) return undefined
  const stable = request.messages.slice(0, request.stableMessages)
  if (stable.some(hasFile)) return undefined
  const instruction = inChatSummaryPrompt({
    count: span.length,
    first: transcriptLine(span[0]!.role, span[0]!.text),
    last: transcriptLine(span.at(-1)!.role, span.at(-1)!.text),
    mode: conv.summary ? ask.mode : 'none',
    targetTokens: ask.targetTokens
  })
  const stableTokens = request.context.stableTokens
  return {
    ...(request.system !== undefined ? { system: request.system } : {}),
    messages: [...stable, { role: 'user', content: instruction }],
    stableMessages: stable.length,
    ...(request.summarySplits && request.summarySplits.index < stable.length
      ? { summarySplits: request.summarySplits }
      : {}),
    countedTokens: stableTokens + conv.countText(instruction) + conv.overheadTokens
  }
}

export interface InChatSummaryResult extends CacheUsage {
  text: string
  inputTokens?: number
  outputTokens?: number
}

/** Streams the summary of an in-chat request, with the chat's prompt-cache marks and the reply policy. */
export async function inChatSummary(
  request: InChatSummaryRequest,
  options: SummaryStream & { cache: Parameters<typeof withPromptCache>[1]; maxOutputTokens: number }
): Promise<InChatSummaryResult> {
  const cached = withPromptCache(request, options.cache)
  const result = await streamReply({
    model: options.model,
    ...cached,
    maxOutputTokens: options.maxOutputTokens,
    signal: options.signal,
    stallMs: options.stallMs,
    firstChunkMs: options.firstChunkMs,
    retry: options.retry,
    now: options.now,
    onDelta: options.onDelta
  })
  if (result.outcome === 'aborted') throw new SummarizerError('Cancelled.', undefined)
  if (result.outcome === 'error') throw new SummarizerError('The summarization model failed.', result.error)
  const text = result.text.trim()
  if (!text) throw new SummarizerError('The summarization model returned an empty summary.', undefined)
  return {
    text,
    ...(result.inputTokens !== undefined ? { inputTokens: result.inputTokens } : {}),
    ...(result.outputTokens !== undefined ? { outputTokens: result.outputTokens } : {}),
    ...(result.cacheReadTokens !== undefined ? { cacheReadTokens: result.cacheReadTokens } : {}),
    ...(result.cacheWriteTokens !== undefined ? { cacheWriteTokens: result.cacheWriteTokens } : {})
  }
}
