import { streamText, type LanguageModel, type ModelMessage } from 'ai'

export interface StreamReplyOptions {
  model: LanguageModel
  system?: string
  messages: ModelMessage[]
  /** The user's Stop. */
  signal: AbortSignal
  /** Abort when no chunk arrives for this long (a stalled server). */
  stallMs: number
  maxOutputTokens?: number
  maxRetries?: number
  onDelta(text: string): void
}

export type StreamReplyResult =
  | { outcome: 'complete'; text: string; inputTokens?: number; outputTokens?: number }
  | { outcome: 'aborted'; text: string }
  | { outcome: 'error'; text: string; error: unknown; stalled: boolean }

/**
 * Streams one reply. streamText reports failures through the stream rather than by throwing, so
 * this walks the full stream and reports how it ended, together with the text that arrived.
 */
export async function streamReply(options: StreamReplyOptions): Promise<StreamReplyResult> {
  const stall = new AbortController()
  let stalled = false
  let timer: NodeJS.Timeout | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      stalled = true
      stall.abort(new DOMException('The provider stopped sending', 'TimeoutError'))
    }, options.stallMs)
  }
  const signal = AbortSignal.any([options.signal, stall.signal])
  let text = ''
  let failure: unknown
  let usage: { inputTokens?: number; outputTokens?: number } = {}
  arm()
  try {
    const result = streamText({
      model: options.model,
      system: options.system,
      messages: options.messages,
      abortSignal: signal,
      maxRetries: options.maxRetries ?? 2,
      maxOutputTokens: options.maxOutputTokens,
      // Errors arrive as stream parts below; this keeps them out of the console.
      onError: () => {}
    })
    for await (const part of result.fullStream) {
      arm()
      if (part.type === 'text-delta') {
        text += part.text
        options.onDelta(part.text)
      } else if (part.type === 'error') {
        failure = part.error
      } else if (part.type === 'finish') {
        usage = { inputTokens: part.totalUsage.inputTokens, outputTokens: part.totalUsage.outputTokens }
      }
    }
  } catch (err) {
    failure = err
  } finally {
    clearTimeout(timer)
  }
  if (options.signal.aborted) return { outcome: 'aborted', text }
  if (stalled) return { outcome: 'error', text, error: failure ?? new Error('stalled'), stalled: true }
  if (failure !== undefined) return { outcome: 'error', text, error: failure, stalled: false }
  return { outcome: 'complete', text, ...usage }
}
