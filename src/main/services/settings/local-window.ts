/** How long each probe of a local server may take: it answers from memory, or not at all. */
const PROBE_TIMEOUT_MS = 2000

export interface LocalWindow {
  window: number
  /** Which server said so, for the logs and the model picker. */
  server: 'ollama' | 'lm-studio' | 'llama.cpp'
  /** Where in its answer, in words: "Ollama, loaded model (/api/ps)". */
  from: string
}

type Found = { window: number; from: string } | undefined

const positive = (n: unknown): number | undefined =>
  typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined

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

/**
 * Ollama: the window a loaded model runs with (/api/ps), else the num_ctx its Modelfile sets, else
 * the window the model was trained with (`<arch>.context_length` in /api/show's model_info, which
 * is all current Ollama reports when num_ctx is unset).
 */
async function ollama(doFetch: typeof fetch, root: string, model: string): Promise<Found> {
  const ps = (await getJson(doFetch, `${root}/api/ps`)) as
    { models?: Array<{ name?: string; model?: string; context_length?: unknown }> } | undefined
  const loaded = positive(ps?.models?.find((m) => m.name === model || m.model === model)?.context_length)
  if (loaded) return { window: loaded, from: 'Ollama, loaded model (/api/ps)' }
  const show = (await getJson(doFetch, `${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model })
  })) as { parameters?: unknown; model_info?: Record<string, unknown> } | undefined
  const numCtx =
    typeof show?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined
  const set = numCtx ? positive(Number(numCtx)) : undefined
  if (set) return { window: set, from: 'Ollama, num_ctx in the Modelfile (/api/show)' }
  const info = show?.model_info ?? {}
  const trained = Object.keys(info)
    .filter((k) => k.endsWith('.context_length'))
    .map((k) => positive(info[k]))
    .find((n) => n !== undefined)
  return trained ? { window: trained, from: 'Ollama, model_info context_length (/api/show)' } : undefined
}

/** LM Studio: the window a loaded model was given, else the most the model takes (/api/v0/models/{id}). */
async function lmStudio(doFetch: typeof fetch, root: string, model: string): Promise<Found> {
  const info = (await getJson(doFetch, `${root}/api/v0/models/${encodeURIComponent(model)}`)) as
    { loaded_context_length?: unknown; max_context_length?: unknown } | undefined
  const loaded = positive(info?.loaded_context_length)
  if (loaded) return { window: loaded, from: 'LM Studio, loaded model (/api/v0/models)' }
  const max = positive(info?.max_context_length)
  return max ? { window: max, from: 'LM Studio, the model’s maximum (/api/v0/models)' } : undefined
}

/** llama.cpp's server: one model, one window (/props). */
async function llamaCpp(doFetch: typeof fetch, root: string): Promise<Found> {
  const props = (await getJson(doFetch, `${root}/props`)) as
    { n_ctx?: unknown; default_generation_settings?: { n_ctx?: unknown } } | undefined
  const n = positive(props?.default_generation_settings?.n_ctx) ?? positive(props?.n_ctx)
  return n ? { window: n, from: 'llama.cpp, n_ctx (/props)' } : undefined
}

/**
 * The context window a local OpenAI-compatible server really runs a model with, asked in each
 * server's own API (they answer 404 to the others'); undefined when none says.
 */
export async function detectLocalWindow(
  doFetch: typeof fetch,
  baseURL: string,
  model: string
): Promise<LocalWindow | undefined> {
  const root = serverRoot(baseURL)
  const [o, l, c] = await Promise.all([
    ollama(doFetch, root, model),
    lmStudio(doFetch, root, model),
    llamaCpp(doFetch, root)
  ])
  if (o) return { ...o, server: 'ollama' }
  if (l) return { ...l, server: 'lm-studio' }
  if (c) return { ...c, server: 'llama.cpp' }
  return undefined
}
