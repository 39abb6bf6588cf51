import type { LanguageModel } from 'ai'
import { summarizeExtractive } from '../../engine/extractive/summarize-extractive'
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt, transcriptLine } from '../../engine/prompts'
import { truncateMiddle } from '../../engine/truncate'
import type { CountTokens, EngineMessage } from '../../engine/types'
import { streamReply, type RetryPolicy } from '../../providers/stream-reply'

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

/** Prompt text around the transcript (instructions, format, headings), with room to spare. */
const PROMPT_FRAME_TOKENS = 400

/** Messages whose text is read between turns of the event loop (~5 ms of reading). */
const TEXTS_PER_TURN = 256

/**
 * Splits the messages into runs whose transcript fits `room` tokens, by their stored counts (no
 * re-tokenizing); a message larger than half the room is cut in the middle (only those are counted).
 */
export async function transcriptChunks(messages: readonly EngineMessage[], room: number, countTokens: CountTokens): Promise<string[][]> {
  const cap = Math.max(32, Math.floor(room / 2))
  const chunks: string[][] = []
  let current: string[] = []
  let used = 0
  for (const [i, m] of messages.entries()) {
    // Each text is read from the database on first use: a long span is read with the event loop free now and then.
    if (i > 0 && i % TEXTS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    let line = transcriptLine(m.role, m.text)
    // Stored counts where there are any; a message never counted is counted here.
    let tokens = m.tokens > 0 ? m.tokens : countTokens(line)
    if (tokens > cap) {
      line = truncateMiddle(line, cap, countTokens)
      tokens = cap
    }
    if (current.length > 0 && used + tokens > room) {
      chunks.push(current)
      current = []
      used = 0
    }
    current.push(line)
    used += tokens
  }
  // Nothing new (a regenerate of the summary alone) is still one request.
  if (current.length > 0 || chunks.length === 0) chunks.push(current)
  return chunks
}

/**
 * The llm summarizer: spec 002 Appendix B's prompt, streamed so the UI can show it arriving, with
 * the same timeout and retry policy as chat replies. Every request fits the summarization model's
 * own window: a span too long for one is summarized in parts, each part folding the summary so far
 * in (the same cascade as FR-1.4.2), and only the last part streams to the UI.
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
  // The running summary comes back into each later prompt: keep room for it.
  const room = Math.max(256, request.inputBudget - PROMPT_FRAME_TOKENS - Math.ceil(request.targetTokens * 1.5))
  const chunks = await transcriptChunks(request.messages, room, request.countTokens)
  let summary = request.previousSummary
  for (const [i, lines] of chunks.entries()) {
    const last = i === chunks.length - 1
    const result = await streamReply({
      model: request.model,
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: summaryPrompt({ previousSummary: summary, transcript: lines.join('\n'), targetTokens: request.targetTokens, focus: request.focus })
        }
      ],
      maxOutputTokens: Math.ceil(request.targetTokens * 1.5) + 64,
      signal: request.signal,
      stallMs: request.stallMs,
      firstChunkMs: request.firstChunkMs,
      retry: request.retry,
      now: request.now,
      onDelta: last ? request.onDelta : () => {}
    })
    if (result.outcome === 'aborted') throw new SummarizerError('Cancelled.', undefined)
    if (result.outcome === 'error') throw new SummarizerError('The summarization model failed.', result.error)
    const text = result.text.trim()
    if (!text) throw new SummarizerError('The summarization model returned an empty summary.', undefined)
    summary = text
  }
  return summary ?? ''
}
