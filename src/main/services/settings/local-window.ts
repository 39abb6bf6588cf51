/** How long each probe of a local server may take: it answers from memory, or not at all. */
const PROBE_TIMEOUT_MS = 2000

export interface LocalWindow {
  window: number
  /** Which server said so, for the logs and the model picker. */
  server: 'ollama' | 'lm-studio' | 'llama.cpp'
}

const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined)

/** The server's root: OpenAI-compatible addresses end in /v1, the native APIs live beside it. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '')
}

async function getJson(doFetch: typeof fetch, url: string, init: RequestInit = {}): Promise<unknown> {
  try {
    const res = await doFetch(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    return res.ok ? await res.json() : undefined
  } catch {
    return undefined
  }
}

/** Ollama: the window a loaded model runs with (/api/ps), else the num_ctx its Modelfile sets (/api/show). */
async function ollama(doFetch: typeof fetch, root: string, model: string): Promise<number | undefined> {
  const ps = (await getJson(doFetch, `${root}/api/ps`)) as { models?: Array<{ name?: string; model?: string; context_length?: unknown }> } | undefined
  const loaded = ps?.models?.find((m) => m.name === model || m.model === model)
  if (positive(loaded?.context_length)) return positive(loaded?.context_length)
  const show = (await getJson(doFetch, `${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model })
  })) as { parameters?: unknown } | undefined
  const numCtx = typeof show?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined
  return numCtx ? positive(Number(numCtx)) : undefined
}

/** LM Studio: the window a loaded model was given, else the most the model takes (/api/v0/models/{id}). */
async function lmStudio(doFetch: typeof fetch, root: string, model: string): Promise<number | undefined> {
  const info = (await getJson(doFetch, `${root}/api/v0/models/${encodeURIComponent(model)}`)) as
    | { loaded_context_length?: unknown; max_context_length?: unknown }
    | undefined
  return positive(info?.loaded_context_length) ?? positive(info?.max_context_length)
}

/** llama.cpp's server: one model, one window (/props). */
async function llamaCpp(doFetch: typeof fetch, root: string): Promise<number | undefined> {
  const props = (await getJson(doFetch, `${root}/props`)) as { n_ctx?: unknown; default_generation_settings?: { n_ctx?: unknown } } | undefined
  return positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx)
}

/**
 * The context window a local OpenAI-compatible server really runs a model with, asked in each
 * server's own API (they answer 404 to the others'); undefined when none says.
 */
export async function detectLocalWindow(doFetch: typeof fetch, baseURL: string, model: string): Promise<LocalWindow | undefined> {
  const root = serverRoot(baseURL)
  const [o, l, c] = await Promise.all([ollama(doFetch, root, model), lmStudio(doFetch, root, model), llamaCpp(doFetch, root)])
  if (o) return { window: o, server: 'ollama' }
  if (l) return { window: l, server: 'lm-studio' }
  if (c) return { window: c, server: 'llama.cpp' }
  return undefined
}
