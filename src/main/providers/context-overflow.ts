import { APICallError, RetryError } from 'ai'

/** What a provider said when it refused a request as longer than the model's window. */
export interface ContextOverflow {
  /** The provider's own count of the request's input, when it said it. */
  inputTokens?: number
  /** The most input it would take (its window, less the reply asked for, when it said so). */
  maxInput?: number
  /** The model's whole window, when the provider said it apart from the input's room. */
  window?: number
}

const number = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/,/g, '')))

/**
 * Recognizes "the request is longer than the window" in a provider's error, with the numbers it
 * gives: OpenAI and OpenAI-compatible servers (vLLM, LM Studio: context_length_exceeded, "maximum
 * context length is N tokens … (P in the messages, C in the completion)"), llama.cpp ("exceeds the
 * available context size", n_prompt_tokens / n_ctx), Anthropic ("prompt is too long: P tokens > M
 * maximum") and Gemini ("input token count (P) exceeds the maximum number of tokens allowed (M)").
 */
export function contextOverflow(err: unknown): ContextOverflow | undefined {
  const error = RetryError.isInstance(err) ? err.lastError : err
  if (!APICallError.isInstance(error)) return undefined
  if (error.statusCode !== undefined && error.statusCode !== 400 && error.statusCode !== 413) return undefined
  const text = `${error.message}\n${error.responseBody ?? ''}`
  const openai =
    /maximum context length is ([\d,]+) tokens[\s\S]*?\(([\d,]+) in the messages(?:, ([\d,]+) in the completion)?/i.exec(
      text
    )
  if (openai) {
    const window = number(openai[1])!
    return { inputTokens: number(openai[2]), maxInput: window - (number(openai[3]) ?? 0), window }
  }
  const anthropic = /prompt is too long:\s*([\d,]+) tokens\s*>\s*([\d,]+)/i.exec(text)
  if (anthropic) return { inputTokens: number(anthropic[1]), maxInput: number(anthropic[2]) }
  const gemini = /input token count \(?([\d,]+)\)? exceeds the maximum number of tokens allowed \(?([\d,]+)\)?/i.exec(
    text
  )
  if (gemini) return { inputTokens: number(gemini[1]), maxInput: number(gemini[2]) }
  const llama = /exceeds the available context size/i.test(text)
  if (llama) {
    const prompt = /"n_prompt_tokens"\s*:\s*(\d+)/.exec(text)
    const ctx = /"n_ctx"\s*:\s*(\d+)/.exec(text)
    return { inputTokens: number(prompt?.[1]), maxInput: number(ctx?.[1]), window: number(ctx?.[1]) }
  }
  if (/context_length_exceeded|maximum context length|context window|too many tokens|prompt is too long/i.test(text)) {
    return {}
  }
  return undefined
}
