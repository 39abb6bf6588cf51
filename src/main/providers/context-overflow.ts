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

/**
 * How much of a provider's error message and of its response body is read. Both are untrusted
 * input of any size (a proxy may answer with a megabyte of HTML); the numbers a refusal gives are
 * always near the start, so only the start is looked at and every pattern below runs over at most
 * this many characters, with bounded gaps, so no body can stall the event loop.
 */
export const OVERFLOW_MESSAGE_CHARS = 4_096
export const OVERFLOW_BODY_CHARS = 8_192

/** More tokens than any model's window: a count past it is not a count. */
export const MAX_SANE_TOKENS = 100_000_000

/** The start of a provider's text, whatever it was given as. */
export const startOf = (value: unknown, chars: number): string =>
  typeof value === 'string' ? value.slice(0, chars) : ''

/**
 * A token count as a provider wrote it ("8,192"), or undefined when it is not a sane one: not
 * finite, not above zero (`zero`: not below it) or above MAX_SANE_TOKENS.
 */
function count(s: string | undefined, zero = false): number | undefined {
  if (s === undefined) return undefined
  const digits = s.replace(/,/g, '')
  // Longer than any sane count: not converted at all.
  if (digits === '' || digits.length > 12) return undefined
  const n = Number(digits)
  if (!Number.isSafeInteger(n) || n > MAX_SANE_TOKENS) return undefined
  return n > 0 || (zero && n === 0) ? n : undefined
}

/** The overflow with only the numbers that were given (and sane). */
function overflow(numbers: ContextOverflow): ContextOverflow {
  return Object.fromEntries(Object.entries(numbers).filter(([, v]) => v !== undefined)) as ContextOverflow
}

// Every quantifier is bounded: a number is at most 20 characters, a gap at most 400.
const OPENAI =
  /maximum context length is ([\d,]{1,20}) tokens[\s\S]{0,400}?\(([\d,]{1,20}) in the messages(?:, ([\d,]{1,20}) in the completion)?/i
const ANTHROPIC = /prompt is too long:\s{0,20}([\d,]{1,20}) tokens\s{0,20}>\s{0,20}([\d,]{1,20})/i
const GEMINI = /input token count \(?([\d,]{1,20})\)? exceeds the maximum number of tokens allowed \(?([\d,]{1,20})\)?/i
const LLAMA = /exceeds the available context size/i
const LLAMA_PROMPT = /"n_prompt_tokens"\s{0,20}:\s{0,20}(\d{1,20})/
const LLAMA_CTX = /"n_ctx"\s{0,20}:\s{0,20}(\d{1,20})/
const ANY = /context_length_exceeded|maximum context length|context window|too many tokens|prompt is too long/i

/**
 * Recognizes "the request is longer than the window" in a provider's error, with the numbers it
 * gives: OpenAI and OpenAI-compatible servers (vLLM, LM Studio: context_length_exceeded, "maximum
 * context length is N tokens … (P in the messages, C in the completion)"), llama.cpp ("exceeds the
 * available context size", n_prompt_tokens / n_ctx), Anthropic ("prompt is too long: P tokens > M
 * maximum") and Gemini ("input token count (P) exceeds the maximum number of tokens allowed (M)").
 * Only the start of the message and body is read (see OVERFLOW_BODY_CHARS); numbers that are not
 * sane token counts are left out, the refusal still recognized.
 */
export function contextOverflow(err: unknown): ContextOverflow | undefined {
  const error = RetryError.isInstance(err) ? err.lastError : err
  if (!APICallError.isInstance(error)) return undefined
  if (error.statusCode !== undefined && error.statusCode !== 400 && error.statusCode !== 413) return undefined
  const text = `${startOf(error.message, OVERFLOW_MESSAGE_CHARS)}\n${startOf(error.responseBody, OVERFLOW_BODY_CHARS)}`
  const openai = OPENAI.exec(text)
  if (openai) {
    const window = count(openai[1])
    const completion = openai[3] === undefined ? 0 : count(openai[3], true)
    const room = window !== undefined && completion !== undefined ? window - completion : undefined
    return overflow({
      inputTokens: count(openai[2]),
      maxInput: room !== undefined && room > 0 ? room : undefined,
      window
    })
  }
  const anthropic = ANTHROPIC.exec(text)
  if (anthropic) return overflow({ inputTokens: count(anthropic[1]), maxInput: count(anthropic[2]) })
  const gemini = GEMINI.exec(text)
  if (gemini) return overflow({ inputTokens: count(gemini[1]), maxInput: count(gemini[2]) })
  if (LLAMA.test(text)) {
    const ctx = count(LLAMA_CTX.exec(text)?.[1])
    return overflow({ inputTokens: count(LLAMA_PROMPT.exec(text)?.[1]), maxInput: ctx, window: ctx })
  }
  if (ANY.test(text)) return {}
  return undefined
}
