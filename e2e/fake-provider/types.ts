/** Shared shapes of the fake provider. Provider modules only translate these to and from wire formats. */

export type ProviderName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'

export type Fault = 'http401' | 'http429' | 'http500' | 'stall' | 'cut'

export interface ScriptStep {
  /**
   * 'title': answers Distill's chat-title request instead of the next reply (see title-requests.ts).
   * 'summary': answers only a summarization request (a summary also takes unmarked steps, as before).
   */
  for?: 'reply' | 'title' | 'summary'
  /** Whole reply; split into word-ish chunks when streamed. Ignored when `chunks` is given. */
  reply?: string
  /** Exact stream chunks; the reply is their concatenation. */
  chunks?: string[]
  fault?: Fault
  /** `retry-after` header value for http429 (default 1). */
  retryAfterSeconds?: number
  /** Pause between streamed chunks. */
  delayMs?: number
  /** Overrides the estimated usage reported to the client. */
  usage?: { input?: number; output?: number }
}

export interface ChatMessage {
  role: string
  text: string
  /** Images and files in the message, decoded from the provider's wire format. */
  attachments?: Omit<RecordedAttachment, 'message' | 'role'>[]
}

/** One image or file a generation request carried, as the provider received it. */
export interface RecordedAttachment {
  /** Index of the message in the request (the system prompt, when separate, is message 0). */
  message: number
  role: string
  /** The wire shape: OpenAI chat image_url / file, Responses input_image / input_file, Anthropic image / document, Gemini inline_data. */
  wire: 'image_url' | 'file' | 'input_image' | 'input_file' | 'image' | 'document' | 'inline_data'
  mediaType: string
  filename?: string
  /** Decoded size and sha-256 of the bytes. */
  bytes: number
  sha256: string
  url?: string
}

/** A generation request reduced to what the fake needs. */
export interface ParsedChat {
  model: string
  stream: boolean
  messages: ChatMessage[]
  /** OpenAI chat only sends a usage chunk when stream_options.include_usage is set. */
  includeUsage: boolean
}

/** Everything a provider needs to render one successful answer. */
export interface Turn {
  id: string
  model: string
  /** Unix seconds. */
  created: number
  reply: string
  chunks: string[]
  inputTokens: number
  outputTokens: number
  includeUsage: boolean
  /**
   * Parts of inputTokens the prompt cache read and wrote (`write1h`: written for 1 hour, part of
   * `write`). Undefined on a server without caching.
   */
  cache?: { read: number; write: number; write1h: number }
}

/** Serialized SSE frames: head, one group per chunk, tail. Faults cut the list short. */
export interface StreamPlan {
  head: string[]
  chunks: string[][]
  tail: string[]
}

export type ErrorKind = 'auth' | 'rate_limit' | 'server' | 'bad_request' | 'not_found'

export const statusOf: Record<ErrorKind, number> = {
  auth: 401,
  rate_limit: 429,
  server: 500,
  bad_request: 400,
  not_found: 404
}

export interface ChatAdapter {
  provider: ProviderName
  parse(body: Record<string, unknown>, model: string | undefined): ParsedChat
  json(turn: Turn): unknown
  stream(turn: Turn): StreamPlan
}

export interface RecordedRequest {
  seq: number
  /** 'openai-models', 'anthropic-count-tokens', 'gemini-count-tokens' for the non-generation endpoints. */
  provider: string
  method: string
  path: string
  /** Query string without `key`. */
  query: Record<string, string>
  model: string | null
  stream: boolean
  body: unknown
  /** Lower-cased request headers without authorization, x-api-key and x-goog-api-key. */
  headers: Record<string, string>
  /** What the fake answered: 'ok' or the fault. */
  outcome: 'ok' | Fault | 'error'
  /** The deterministic reply text (also set for cut/stall, which deliver only part of it). */
  reply?: string
  /** The whole input, cached parts included. */
  inputTokens?: number
  /**
   * Prompt-cache accounting of a generation request, in reported tokens: read from the cache,
   * written to it (Anthropic only; OpenAI and Gemini bill no writes), and Anthropic cache_control
   * breakpoints.
   */
  cache?: { read: number; write: number; breakpoints: number }
  /** Images and files the generation request carried, in message order. */
  attachments?: RecordedAttachment[]
}
