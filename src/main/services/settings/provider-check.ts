import type { ProviderId } from '../../../shared/domain/provider'
import type { ProviderConnection } from '../../providers/create-language-model'

/** The addresses each provider's SDK uses when none is set. */
const DEFAULT_BASE_URL: Record<ProviderId, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': undefined
}

export const CHECK_TIMEOUT_MS = 10_000

export type CheckOutcome = { ok: true; models: number } | { ok: false; message: string }

function modelsRequest(c: ProviderConnection): { url: string; headers: Record<string, string> } | undefined {
  const base = (c.baseURL ?? DEFAULT_BASE_URL[c.provider])?.replace(/\/+$/, '')
  if (!base) return undefined
  const key = c.apiKey ?? ''
  switch (c.provider) {
    case 'anthropic':
      return { url: `${base}/models`, headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } }
    case 'google':
      return { url: `${base}/models`, headers: { 'x-goog-api-key': key } }
    default:
      return { url: `${base}/models`, headers: key ? { Authorization: `Bearer ${key}` } : {} }
  }
}

/** The provider's own words from an error body, when it sent any (OpenAI, Anthropic and Gemini all nest them under `error`). */
function providerMessage(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error
  if (typeof error === 'string') return error
  const message = (error as { message?: unknown } | undefined)?.message
  return typeof message === 'string' && message.trim() ? message.trim().slice(0, 300) : undefined
}

function statusSentence(status: number, url: string, said: string | undefined): string {
  const theirs = said ? ` It said: “${said}”` : ''
  if (status === 401 || status === 403) return `The key was refused (${status}). Check it in Settings.${theirs}`
  if (status === 404) return `Nothing answers at ${url} (404). Check the address: it usually ends in /v1.${theirs}`
  if (status === 429) return `The provider is rate-limiting this key (429). Try again in a minute.${theirs}`
  if (status >= 500) return `The provider had an error (${status}). Try again later.${theirs}`
  return `The provider answered ${status}.${theirs}`
}

/**
 * Lists the provider's models with the stored key and address: the cheapest call that proves both
 * work. Every failure comes back as a sentence a person can act on.
 */
export async function checkProvider(
  c: ProviderConnection,
  doFetch: typeof fetch,
  timeoutMs = CHECK_TIMEOUT_MS
): Promise<CheckOutcome> {
  if (c.provider === 'openai-compatible' && !c.baseURL)
    return { ok: false, message: 'Set the server’s address first, e.g. http://127.0.0.1:11434/v1 for Ollama.' }
  if (c.provider !== 'openai-compatible' && !c.apiKey) return { ok: false, message: 'Add an API key first.' }
  const request = modelsRequest(c)!
  let res: Response
  try {
    res = await doFetch(request.url, { headers: request.headers, signal: AbortSignal.timeout(timeoutMs) })
  } catch (err) {
    const name = (err as { name?: string }).name
    if (name === 'TimeoutError' || name === 'AbortError')
      return { ok: false, message: `No answer from ${request.url} within ${Math.round(timeoutMs / 1000)} s.` }
    const cause = (err as { cause?: { code?: string } }).cause?.code
    return {
      ok: false,
      message: `Cannot reach ${request.url}${cause ? ` (${cause})` : ''}. Is the server running, and is the address right?`
    }
  }
  const body: unknown = await res.json().catch(() => undefined)
  if (!res.ok) return { ok: false, message: statusSentence(res.status, request.url, providerMessage(body)) }
  const list =
    (body as { data?: unknown; models?: unknown } | undefined)?.data ??
    (body as { models?: unknown } | undefined)?.models
  if (!Array.isArray(list))
    return { ok: false, message: `${request.url} answered, but not with a list of models. Check the address.` }
  return { ok: true, models: list.length }
}
