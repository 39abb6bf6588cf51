import { z } from 'zod'

export type RemoteCountResult = { ok: true; tokens: number } | { ok: false; reason: string }

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

export interface RemoteCountOptions {
  baseURL: string
  apiKey: string
  model: string
  fetch?: FetchLike
  /** Default 5 s: the meter must not wait long on a slow endpoint (FR-5.2.1 falls back instead). */
  timeoutMs?: number
  signal?: AbortSignal
}

export const DEFAULT_REMOTE_TIMEOUT_MS = 5_000
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1'
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta'

export interface AnthropicCountMessage {
  role: 'user' | 'assistant'
  content: string | readonly { type: 'text'; text: string }[]
}

const anthropicResponse = z.object({ input_tokens: z.number().int().nonnegative() })
// proto3 JSON omits zero-valued fields, so an empty text may come back as {}.
const geminiResponse = z.object({ totalTokens: z.number().int().nonnegative().default(0) })

async function postJson<T>(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  schema: z.ZodType<T>,
  opts: RemoteCountOptions
): Promise<{ ok: true; data: T } | { ok: false; reason: string }> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS)
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal
    })
    const text = await res.text()
    if (!res.ok) return { ok: false, reason: `http ${res.status}: ${text.slice(0, 200)}` }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return { ok: false, reason: 'malformed JSON response' }
    }
    const parsed = schema.safeParse(json)
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reason: 'unexpected response shape' }
  } catch (err) {
    if (timeout.aborted) return { ok: false, reason: 'timeout' }
    const e = err as { name?: string; message?: string }
    return { ok: false, reason: e.name === 'AbortError' ? 'aborted' : `network: ${e.message ?? String(err)}` }
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')

/** Anthropic `POST /v1/messages/count_tokens` → input_tokens. */
export async function countAnthropicTokens(
  opts: RemoteCountOptions & { messages: readonly AnthropicCountMessage[]; system?: string }
): Promise<RemoteCountResult> {
  const body = { model: opts.model, messages: opts.messages, ...(opts.system ? { system: opts.system } : {}) }
  const headers = { 'x-api-key': opts.apiKey, 'anthropic-version': '2023-06-01' }
  const r = await postJson(`${trimSlash(opts.baseURL)}/messages/count_tokens`, headers, body, anthropicResponse, opts)
  return r.ok ? { ok: true, tokens: r.data.input_tokens } : r
}

/** Gemini `POST /v1beta/models/{model}:countTokens` → totalTokens. */
export async function countGeminiTokens(
  opts: RemoteCountOptions & { contents: readonly { role: 'user' | 'model'; parts: readonly { text: string }[] }[] }
): Promise<RemoteCountResult> {
  const model = encodeURIComponent(opts.model.replace(/^models\//, ''))
  const url = `${trimSlash(opts.baseURL)}/models/${model}:countTokens`
  const r = await postJson(url, { 'x-goog-api-key': opts.apiKey }, { contents: opts.contents }, geminiResponse, opts)
  return r.ok ? { ok: true, tokens: r.data.totalTokens } : r
}

/** Nominal chat framing per message added to remote content counts (the endpoints do not expose it). */
export const REMOTE_MESSAGE_FRAMING = 3

export type SingleTextCounter = (text: string) => Promise<RemoteCountResult>

export function anthropicTextCounter(opts: RemoteCountOptions): SingleTextCounter {
  return (text) => countAnthropicTokens({ ...opts, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })
}

export function geminiTextCounter(opts: RemoteCountOptions): SingleTextCounter {
  return (text) => countGeminiTokens({ ...opts, contents: [{ role: 'user', parts: [{ text }] }] })
}

/**
 * Per-message counts from a whole-request endpoint. Counting [...prev, msg] − [...prev] costs two
 * ever-growing requests per message; instead a message is counted alone and the endpoint's fixed
 * cost is subtracted: baseline = count(one user message ".") − 1, i.e. the request/turn framing
 * without content ("." is one token in every vocabulary). The baseline is measured once per model
 * and cached; a failed measurement is not cached, so the next count retries it.
 * Every message is sent as a single user text block: tool_use/tool_result blocks are invalid
 * alone, and role framing differs by a token or two. count() returns the content tokens; the
 * caller adds REMOTE_MESSAGE_FRAMING.
 */
export function createBaselineCounter(countText: SingleTextCounter) {
  let baseline: Promise<RemoteCountResult> | undefined
  const getBaseline = (): Promise<RemoteCountResult> => {
    baseline ??= countText('.').then((r) => {
      if (!r.ok) baseline = undefined // retry next time rather than caching a failure
      return r.ok ? { ok: true, tokens: Math.max(0, r.tokens - 1) } : r
    })
    return baseline
  }
  return {
    getBaseline,
    /** Content tokens of one message's text (0 for empty text, which endpoints reject). */
    async count(text: string): Promise<RemoteCountResult> {
      if (text.length === 0) return { ok: true, tokens: 0 }
      const [base, whole] = await Promise.all([getBaseline(), countText(text)])
      if (!base.ok) return base
      if (!whole.ok) return whole
      return { ok: true, tokens: Math.max(0, whole.tokens - base.tokens) }
    }
  }
}
export type BaselineCounter = ReturnType<typeof createBaselineCounter>
