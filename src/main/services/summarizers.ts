import type { LanguageModel } from 'ai'
import { summarizeExtractive } from '../engine/extractive/summarize-extractive'
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt, transcriptLine } from '../engine/prompts'
import { truncateMiddle } from '../engine/truncate'
import type { CountTokens, EngineMessage } from '../engine/types'
import { streamReply, type RetryPolicy } from '../providers/stream-reply'

export interface SummarizeRequest {
  previousSummary?: string
  messages: readonly EngineMessage[]
  targetTokens: number
  focus?: string
  countTokens: CountTokens
}

/** The truncation baseline: no summary at all, only a note of what was removed (ADR 0005's marker). */
export function truncationMarkerSummary(request: SummarizeRequest, messagesIncluded: number): string {
  return `[${messagesIncluded} earlier messages were removed to fit the context window.]`
}

export function extractiveSummary(request: SummarizeRequest): string {
  return summarizeExtractive({
    previousSummary: request.previousSummary,
    messages: request.messages.map((m) => ({ role: m.role, text: m.text, createdAt: m.createdAt })),
    targetTokens: request.targetTokens,
    countTokens: request.countTokens,
    focus: request.focus
  })
}

export class SummarizerError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown
  ) {
    super(message)
    this.name = 'SummarizerError'
  }
}

/**
 * The llm summarizer: spec 002 Appendix B's prompt, streamed so the UI can show it arriving, with
 * the same timeout and retry policy as chat replies. The transcript is cut in the middle of its
 * largest messages when it would not fit the summarization model's own window.
 */
export async function llmSummary(
  request: SummarizeRequest & {
    model: LanguageModel
    /** Room for the prompt in the summarization model's window. */
    inputBudget: number
    signal: AbortSignal
    stallMs: number
    firstChunkMs?: number
    retry?: RetryPolicy
    now(): number
    onDelta(text: string): void
  }
): Promise<string> {
  const perMessage = Math.max(64, Math.floor(request.inputBudget / Math.max(1, request.messages.length)))
  let lines = request.messages.map((m) => transcriptLine(m.role, m.text))
  if (request.countTokens(lines.join('\n')) > request.inputBudget) {
    lines = lines.map((line) => truncateMiddle(line, perMessage, request.countTokens))
  }
  const result = await streamReply({
    model: request.model,
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: summaryPrompt({
          previousSummary: request.previousSummary,
          transcript: lines.join('\n'),
          targetTokens: request.targetTokens,
          focus: request.focus
        })
      }
    ],
    maxOutputTokens: Math.ceil(request.targetTokens * 1.5) + 64,
    signal: request.signal,
    stallMs: request.stallMs,
    firstChunkMs: request.firstChunkMs,
    retry: request.retry,
    now: request.now,
    onDelta: request.onDelta
  })
  if (result.outcome === 'aborted') throw new SummarizerError('Cancelled.', undefined)
  if (result.outcome === 'error') throw new SummarizerError('The summarization model failed.', result.error)
  const text = result.text.trim()
  if (!text) throw new SummarizerError('The summarization model returned an empty summary.', undefined)
  return text
}
