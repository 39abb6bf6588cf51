/** How long each probe of a local server may take: it answers from memory, or not at all. */
const PROBE_TIMEOUT_MS = 2000

export interface LocalWindow {
  window: number
  /** Which server said so, for the logs and the model picker. */
  server: 'ollama' | 'lm-studio' | 'llama.cpp'
  /** Where in its answer, in words: "Ollama, loaded model (/api/ps)". */
  from: string
}

/**
 * Which local server answers at an address, learnt from its server-wide endpoints (one request
 * each, whatever the number of models): Ollama's loaded models, LM Studio's model list with their
 * windows, llama.cpp's one window. 'other' answered none of them (vLLM, a proxy, the fake provider).
 */
export type LocalServer =
  | { kind: 'ollama'; loaded: ReadonlyMap<string, number> }
  | { kind: 'lm-studio'; models: ReadonlyMap<string, { loaded?: number; max?: number }> }
  | { kind: 'llama.cpp'; window: number | undefined }
  | { kind: 'other' }

/** A window found, or nothing to tell; `answered` false when the server did not answer at all (ask again later). */
export interface LocalWindowAnswer {
  answered: boolean
  found?: LocalWindow
}

type Reply = { answered: false } | { answered: true; body: unknown }

const positive = (n: unknown): number | undefined =>
  typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined

/** The server's root: OpenAI-compatible addresses end in /v1, the native APIs live beside it. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** The JSON body of a successful answer; an error status is an answer without one. */
async function getJson(doFetch: typeof fetch, url: string, init: RequestInit = {}): Promise<Reply> {
  let res: Response
  try {
    res = await doFetch(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
  } catch {
    return { answered: false }
  }
  try {
    return { answered: true, body: res.ok ? await res.json() : undefined }
  } catch {
    return { answered: true, body: undefined }
  }
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/**
 * Asks the three servers' own model endpoints once, together (each answers 404 to the others'):
 * Ollama's /api/ps, LM Studio's /api/v0/models, llama.cpp's /props. Undefined when none answered
 * at all (the server is down: ask again later).
 */
export async function identifyLocalServer(doFetch: typeof fetch, baseURL: string): Promise<LocalServer | undefined> {
  const root = serverRoot(baseURL)
  const [ps, lm, props] = await Promise.all([
    getJson(doFetch, `${root}/api/ps`),
    getJson(doFetch, `${root}/api/v0/models`),
    getJson(doFetch, `${root}/props`)
  ])
  if (!ps.answered && !lm.answered && !props.answered) return undefined
  const psModels = ps.answered ? record(ps.body)?.models : undefined
  if (Array.isArray(psModels)) {
    const loaded = new Map<string, number>()
    for (const m of psModels) {
      const n = positive(record(m)?.context_length)
      if (!n) continue
      for (const name of [record(m)?.name, record(m)?.model]) if (typeof name === 'string') loaded.set(name, n)
    }
    return { kind: 'ollama', loaded }
  }
  const lmModels = lm.answered ? record(lm.body)?.data : undefined
  if (Array.isArray(lmModels)) {
    const models = new Map<string, { loaded?: number; max?: number }>()
    for (const m of lmModels) {
      const id = record(m)?.id
      if (typeof id === 'string')
        models.set(id, {
          loaded: positive(record(m)?.loaded_context_length),
          max: positive(record(m)?.max_context_length)
        })
    }
    return { kind: 'lm-studio', models }
  }
  const p = props.answered ? record(props.body) : undefined
  if (p) {
    const window = positive(record(p.default_generation_settings)?.n_ctx) ?? positive(p.n_ctx)
    if (window) return { kind: 'llama.cpp', window }
  }
  return { kind: 'other' }
}

/**
 * Ollama, a model not loaded: the num_ctx its Modelfile sets, else the window the model was trained
 * with (`<arch>.context_length` in /api/show's model_info, which is all current Ollama reports when
 * num_ctx is unset).
 */
async function ollamaShow(doFetch: typeof fetch, root: string, model: string): Promise<LocalWindowAnswer> {
  const reply = await getJson(doFetch, `${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model })
  })
  if (!reply.answered) return { answered: false }
  const show = record(reply.body)
  const numCtx =
    typeof show?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined
  const set = numCtx ? positive(Number(numCtx)) : undefined
  if (set)
    return {
      answered: true,
      found: { window: set, server: 'ollama', from: 'Ollama, num_ctx in the Modelfile (/api/show)' }
    }
  const info = record(show?.model_info) ?? {}
  const trained = Object.keys(info)
    .filter((k) => k.endsWith('.context_length'))
    .map((k) => positive(info[k]))
    .find((n) => n !== undefined)
  return trained
    ? {
        answered: true,
        found: { window: trained, server: 'ollama', from: 'Ollama, model_info context_length (/api/show)' }
      }
    : { answered: true }
}

/** LM Studio, a model its list did not name: its own entry (/api/v0/models/{id}). */
async function lmStudioModel(doFetch: typeof fetch, root: string, model: string): Promise<LocalWindowAnswer> {
  const reply = await getJson(doFetch, `${root}/api/v0/models/${encodeURIComponent(model)}`)
  if (!reply.answered) return { answered: false }
  const info = record(reply.body)
  const found = lmStudioWindow({
    loaded: positive(info?.loaded_context_length),
    max: positive(info?.max_context_length)
  })
  return found ? { answered: true, found } : { answered: true }
}

/** LM Studio: the window a loaded model was given, else the most the model takes. */
function lmStudioWindow(entry: { loaded?: number; max?: number }): LocalWindow | undefined {
  if (entry.loaded)
    return { window: entry.loaded, server: 'lm-studio', from: 'LM Studio, loaded model (/api/v0/models)' }
  if (entry.max)
    return { window: entry.max, server: 'lm-studio', from: 'LM Studio, the model’s maximum (/api/v0/models)' }
  return undefined
}

/**
 * The context window a local OpenAI-compatible server really runs a model with, from what
 * `identifyLocalServer` learnt, asking the server again only where it must: Ollama's /api/show for
 * a model not loaded, LM Studio's entry for a model its list left out.
 */
export async function localWindow(
  doFetch: typeof fetch,
  baseURL: string,
  server: LocalServer,
  model: string
): Promise<LocalWindowAnswer> {
  const root = serverRoot(baseURL)
  switch (server.kind) {
    case 'ollama': {
      const loaded = server.loaded.get(model)
      if (loaded)
        return { answered: true, found: { window: loaded, server: 'ollama', from: 'Ollama, loaded model (/api/ps)' } }
      return ollamaShow(doFetch, root, model)
    }
    case 'lm-studio': {
      const entry = server.models.get(model)
      if (!entry) return lmStudioModel(doFetch, root, model)
      const found = lmStudioWindow(entry)
      return found ? { answered: true, found } : { answered: true }
    }
    case 'llama.cpp':
      return server.window
        ? { answered: true, found: { window: server.window, server: 'llama.cpp', from: 'llama.cpp, n_ctx (/props)' } }
        : { answered: true }
    case 'other':
      return { answered: true }
  }
}
