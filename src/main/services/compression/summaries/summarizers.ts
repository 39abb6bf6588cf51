import type { LanguageModel } from 'ai'
import { summarizeExtractive } from '../../../engine/extractive/summarize-extractive'
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt, transcriptLine } from '../../../engine/prompts'
import { truncateMiddle } from '../../../engine/truncate'
import type { CountTokens, EngineMessage } from '../../../engine/types'
import { streamReply, type RetryPolicy } from '../../../providers/stream-reply'

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

/** Main-thread time a transcript is built for before the event loop gets a turn (a reply keeps streaming). */
const SLICE_MS = 8

/**
 * Of the summarization model's window, what no request uses (DESIGN §5's safety margin S): the
 * prompt is counted with the chat's tokenizer, not the summarization model's.
 */
const WINDOW_MARGIN = 0.05
/** The transcript's headings and the turn framing around the prompt, beyond what is counted. */
const FRAMING_TOKENS = 64

/** What a summarization model can take and give: its window and its max output. */
export interface SummarizerLimits {
  contextWindow: number
  maxOutput: number
  /**
   * The server's tokens per token counted here, until a reply reports its own count: 1 when the
   * summarization model counts with the chat's tokenizer, else UNKNOWN_COUNT_SCALE.
   */
  countScale?: number
}

/**
 * Assumed server tokens per counted token when the summarization model's tokenizer is not the one
 * the chat counts with (a local model, another provider): the top of what other tokenizers need
 * on English (the estimate factors in tokens/estimate.ts lean the same way). Each reply's reported
 * input then replaces it with the measured ratio (the highest seen, safe toward the server).
 */
export const UNKNOWN_COUNT_SCALE = 1.25
/** A measured ratio past these bounds is a server's odd report, not a tokenizer (calibration clamps alike). */
const MIN_COUNT_SCALE = 0.5
const MAX_COUNT_SCALE = 3

/**
 * The size a summary can have with this model: what was wanted, at most a quarter of the window,
 * and small enough that its reply (the target with room to finish, see `replyTokens`) fits the
 * model's max output without being cut.
 */
export function summaryTargetFor(wanted: number, limits: SummarizerLimits): number {
  return Math.max(1, Math.min(wanted, Math.floor(limits.contextWindow / 4), Math.floor(limits.maxOutput / 1.25)))
}

/** The reply a summary request asks for: the target with room to finish, never past the model's max output. */
export function replyTokens(targetTokens: number, limits: SummarizerLimits): number {
  return Math.min(limits.maxOutput, Math.ceil(targetTokens * 1.5) + 64)
}

/** Whether a request of this many server tokens and the summary's reply fit the model's window, less the margin. */
export function fitsSummarizerWindow(limits: SummarizerLimits, promptTokens: number, targetTokens: number): boolean {
  const window = limits.contextWindow - Math.ceil(limits.contextWindow * WINDOW_MARGIN)
  return promptTokens + replyTokens(targetTokens, limits) <= window
}

/** The request a summary is written with: its size, focus, and the tokenizer that counts it. */
interface PromptShape {
  targetTokens: number
  focus?: string
  countTokens: CountTokens
}

/**
 * Room in each request for the transcript and the summary it folds in, in counted tokens: the
 * summarization model's window less its reply and the margin, in the server's tokens (`scale` per
 * counted token), less the prompt around them (counted).
 */
function promptRoom(limits: SummarizerLimits, request: PromptShape, scale = limits.countScale ?? 1): number {
  const server =
    limits.contextWindow - replyTokens(request.targetTokens, limits) - Math.ceil(limits.contextWindow * WINDOW_MARGIN)
  return Math.floor(server / scale) - promptTokens(request) - FRAMING_TOKENS
}

/** The system prompt and the user prompt around the transcript and the summary folded in. */
function promptTokens(request: PromptShape): number {
  const frame = summaryPrompt({
    previousSummary: ' ',
    transcript: '',
    targetTokens: request.targetTokens,
    focus: request.focus
  })
  return request.countTokens(SUMMARY_SYSTEM_PROMPT) + request.countTokens(frame)
}

/** Never less than a little: a window too small for the prompt is refused by the server, not here. */
const MIN_ROOM = 64

/** Transcript room in a request that folds in a summary of this many tokens. */
const roomBeside = (room: number, summaryTokens: number) => Math.max(MIN_ROOM, room - summaryTokens)

/**
 * The most one message may take of a request: half the room beside the larger of the previous
 * summary and the target (the summary so far is about the target once a part is written).
 */
function messageCap(room: number, request: PromptShape & { previousSummary?: string }): number {
  return Math.max(
    32,
    Math.floor(roomBeside(room, Math.max(request.countTokens(request.previousSummary ?? ''), request.targetTokens)) / 2)
  )
}

interface TranscriptEntry {
  line: string
  tokens: number
}

/**
 * Each message as a transcript line and what it costs, by stored counts (no re-tokenizing); a
 * message larger than `cap` is cut in the middle (only those, and messages never counted, are counted).
 * Each text is read from the database on first use (the conversation reads rows in small batches)
 * and the loop yields every SLICE_MS: a 10,000-message span never holds the event loop for long.
 */
async function transcriptEntries(
  messages: readonly EngineMessage[],
  cap: number,
  countTokens: CountTokens
): Promise<TranscriptEntry[]> {
  const entries: TranscriptEntry[] = []
  let slice = performance.now()
  const turn = async () => {
    if (performance.now() - slice < SLICE_MS) return
    await new Promise<void>((resolve) => setImmediate(resolve))
    slice = performance.now()
  }
  for (const m of messages) {
    const line = transcriptLine(m.role, m.text)
    const tokens = m.tokens > 0 ? m.tokens : countTokens(line)
    if (tokens > cap) {
      // A message too long for its part: counted, then cut, each in a turn of its own.
      const whole = countTokens(line)
      await turn()
      entries.push({ line: truncateMiddle(line, cap, countTokens, whole), tokens: cap })
    } else entries.push({ line, tokens })
    await turn()
  }
  return entries
}

/** Where a part that starts at `start` ends: as many sizes as fit the room, at least one. */
function partEnd(sizes: readonly number[], start: number, room: number): number {
  let end = start
  let used = 0
  while (end < sizes.length && (end === start || used + sizes[end]! <= room)) used += sizes[end++]!
  return end
}

/** Packs sizes in order into parts, the first within `first`, the rest within `later`; returns where each part ends. */
function packParts(sizes: readonly number[], first: number, later: number): number[] {
  const ends: number[] = []
  // Nothing new (a regenerate of the summary alone) is still one request.
  do ends.push(partEnd(sizes, ends.at(-1) ?? 0, ends.length === 0 ? first : later))
  while (ends.at(-1)! < sizes.length)
  return ends
}

/** Splits the messages into runs whose transcript fits `room` tokens each (a message over half of it is cut). */
export async function transcriptChunks(
  messages: readonly EngineMessage[],
  room: number,
  countTokens: CountTokens
): Promise<string[][]> {
  const entries = await transcriptEntries(messages, Math.max(32, Math.floor(room / 2)), countTokens)
  let start = 0
  return packParts(
    entries.map((e) => e.tokens),
    room,
    room
  ).map((end) => entries.slice(start, (start = end)).map((e) => e.line))
}

/** What summarizing a span with a model takes: its requests and the tokens they send and ask for. */
export interface SummaryRunSize {
  requests: number
  inputTokens: number
  outputTokens: number
}

/**
 * The requests a span takes before any is sent (the Summarize dialog says it before a long run),
 * from stored counts: the parts `llmSummary` sends when each summary so far is about the target
 * long, each with its prompt and the summary it folds in, and a reply of about the target each.
 */
export function summaryRunSize(
  messages: readonly EngineMessage[],
  limits: SummarizerLimits,
  request: PromptShape & { previousSummary?: string }
): SummaryRunSize {
  const room = promptRoom(limits, request)
  const cap = messageCap(room, request)
  const sizes = messages.map((m) =>
    Math.min(cap, m.tokens > 0 ? m.tokens : request.countTokens(transcriptLine(m.role, m.text)))
  )
  const previous = request.countTokens(request.previousSummary ?? '')
  const requests = packParts(sizes, roomBeside(room, previous), roomBeside(room, request.targetTokens)).length
  const prompt = promptTokens(request)
  const transcript = sizes.reduce((sum, n) => sum + n, 0)
  const folded = previous + (requests - 1) * request.targetTokens
  return {
    requests,
    inputTokens: requests * prompt + transcript + folded,
    outputTokens: requests * request.targetTokens
  }
}

/** How a summary is streamed from its model: the same timeouts and retries as chat replies. */
export interface SummaryStream {
  model: LanguageModel
  signal: AbortSignal
  stallMs: number
  firstChunkMs?: number
  retry?: RetryPolicy
  now(): number
  onDelta(text: string): void
}

/**
 * The llm summarizer: spec 002 Appendix B's prompt, streamed so the UI can show it arriving, with
 * the same timeout and retry policy as chat replies. Every request fits the summarization model's
 * own window: a span too long for one is summarized in parts, each part folding the summary so far
 * in (the same cascade as FR-1.4.2), and only the last part streams to the UI.
 */
export async function llmSummary(
  request: SummarizeRequest &
    SummaryStream & {
      /** The summarization model's window and max output: every request fits both. */
      limits: SummarizerLimits
      /** A request of several is about to be sent (`done` of `total` are written). */
      onPart?(done: number, total: number): void
    }
): Promise<string> {
  let room = promptRoom(request.limits, request)
  const fixed = promptTokens(request) + FRAMING_TOKENS
  let measured = 0
  const entries = await transcriptEntries(request.messages, messageCap(room, request), request.countTokens)
  const sizes = entries.map((e) => e.tokens)
  let summary = request.previousSummary
  // Each part is filled to the room beside the summary it folds in, as long as that summary really is.
  for (let start = 0, done = 0; done === 0 || start < entries.length; done++) {
    const summaryTokens = request.countTokens(summary ?? '')
    const end = partEnd(sizes, start, roomBeside(room, summaryTokens))
    const lines = entries.slice(start, end).map((e) => e.line)
    const counted = fixed + summaryTokens + sizes.slice(start, end).reduce((sum, n) => sum + n, 0)
    start = end
    const last = start >= entries.length
    // The parts still to come, sized as the estimate sizes them: the total firms up as they go.
    const total =
      done +
      1 +
      (last
        ? 0
        : packParts(sizes.slice(start), roomBeside(room, request.targetTokens), roomBeside(room, request.targetTokens))
            .length)
    if (total > 1) request.onPart?.(done, total)
    const result = await streamReply({
      model: request.model,
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: summaryPrompt({
            previousSummary: summary,
            transcript: lines.join('\n'),
            targetTokens: request.targetTokens,
            focus: request.focus
          })
        }
      ],
      maxOutputTokens: replyTokens(request.targetTokens, request.limits),
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
    // The server said what the prompt cost it: later parts are sized by the highest ratio seen.
    if (result.inputTokens) {
      measured = Math.max(measured, Math.min(MAX_COUNT_SCALE, Math.max(MIN_COUNT_SCALE, result.inputTokens / counted)))
      room = promptRoom(request.limits, request, measured)
    }
  }
  return summary ?? ''
}
