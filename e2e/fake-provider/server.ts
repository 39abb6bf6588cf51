import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { type AddressInfo } from 'node:net'
import { anthropic, anthropicError, anthropicMessages } from './anthropic'
import { anthropicCacheBlocks, MAX_BREAKPOINTS } from './anthropic-cache'
import { autoSummary } from './auto-summary'
import { cacheFieldIn } from './cache-fields'
import { cacheUsage } from './cache-usage'
import { gemini, geminiError, geminiMessages } from './gemini'
import { openaiChat, openaiError } from './openai-chat'
import { openaiResponses } from './openai-responses'
import { PromptCache } from './prompt-cache'
import { asRecord, estimateInputTokens, estimateOutputTokens } from './reply'
import { parseSteps, type Plan, resolvePlan, ScriptQueue } from './script-queue'
import { defaultTitle, isSummaryRequest, isTitleRequest } from './title-requests'
import { cutConnection, runStream, waitForAbort } from './sse'
import { type ChatAdapter, type ErrorKind, type RecordedRequest, type ScriptStep, statusOf, type Turn } from './types'

export interface FakeProviderOptions {
  /** 0 (default) picks a free port. */
  port?: number
  host?: string
  /** A key equal to this is rejected with 401. Default 'bad-key'. */
  badKey?: string
  /** When false, requests without any key are accepted (like a local Ollama). Default true. */
  requireKey?: boolean
  /** Ids listed by GET /v1/models. */
  models?: string[]
  /**
   * Answer like a local server's own API about the windows it runs models with: Ollama
   * (GET /api/ps), LM Studio (GET /api/v0/models/{id}) or llama.cpp (GET /props, one model).
   * 'ollama-model-info' is an Ollama with nothing loaded and no num_ctx set: only POST /api/show's
   * model_info (`<arch>.context_length`) tells the window.
   */
  localServer?: { kind: 'ollama' | 'ollama-model-info' | 'lm-studio' | 'llama.cpp'; windows: Record<string, number> }
  /** One line per request, e.g. console.log for the CLI. */
  log?: (line: string) => void
  /**
   * Reports input usage (and counts tokens) at this multiple of its own estimate: a server whose
   * tokenizer counts fewer (0.7) or more (1.6) tokens than the client's estimate. Default 1.
   */
  usageFactor?: number
  /**
   * Refuses a request whose input (as this server counts it) and requested output pass this many
   * tokens, with the provider's own error (OpenAI's context_length_exceeded, Anthropic's "prompt is
   * too long", Gemini's token-count error). Default: no limit.
   */
  contextWindow?: number
  /**
   * Prompt caching as each real API does it (see README): OpenAI and Gemini cache prefixes
   * implicitly, Anthropic at cache_control breakpoints. false: a server without any cache. Default true.
   */
  cache?: boolean
  /** The prompt cache's clock (ms). Default Date.now; advanceCache() moves it further. */
  now?: () => number
  /**
   * Answer 400 to prompt_cache_key, prompt_cache_retention, prompt_cache_options or cache_control
   * anywhere in a request, like a strict OpenAI-compatible server. Default false.
   */
  rejectCacheFields?: boolean
  /**
   * Answer a summarization request no `for: 'summary'` step is queued for with a generated summary
   * (see auto-summary.ts) instead of the next reply step, for benchmarks. Default false.
   */
  autoSummaries?: boolean
}

export interface FakeProvider {
  /** http://127.0.0.1:PORT — no trailing slash, no version prefix. */
  url: string
  port: number
  /** Ready-made baseURL values for each SDK. */
  baseURLs: { openai: string; anthropic: string; google: string; openaiCompatible: string }
  /** Live list, oldest first; cleared in place by reset(). */
  requests: RecordedRequest[]
  /** Distill's chat-title requests, kept apart so `requests` holds the chat's own traffic only. */
  titleRequests: RecordedRequest[]
  /**
   * Requests to a local server's own API (Ollama's /api/*, LM Studio's /api/v0/*, llama.cpp's
   * /props), asked to learn a model's window, whether or not `localServer` answers them.
   */
  probes: ProbeRequest[]
  /** Appends steps; each generation request (any provider) consumes one; `for: 'title'` steps answer title requests. */
  script(steps: ScriptStep[]): void
  /** Drops pending steps and recorded requests (and sets the usage factor back to the started one). */
  reset(): void
  /** Reports input usage at this multiple of the estimate from now on (see FakeProviderOptions.usageFactor). */
  setUsageFactor(factor: number): void
  /** Refuses requests past this window from now on; null: no limit (see FakeProviderOptions.contextWindow). */
  setContextWindow(window: number | null): void
  /** Moves the prompt cache's clock forward by `ms` (an idle chat whose cache expires). */
  advanceCache(ms: number): void
  /** Forgets every cached prefix (reset() does too). */
  clearCache(): void
  /** Stops listening and destroys every socket, stalled streams included. */
  close(): Promise<void>
}

export interface ProbeRequest {
  method: string
  path: string
  /** The request's body as sent ('' for a GET). */
  body: string
}

type Family = 'openai' | 'anthropic' | 'gemini'

/** The native APIs of local servers, beside their OpenAI-compatible /v1. */
const isProbePath = (path: string) => path === '/props' || path.startsWith('/api/')

interface Route {
  family: Family
  kind: 'chat' | 'count' | 'models'
  adapter?: ChatAdapter
  model?: string
  stream?: boolean
}

/** The SDKs append these to baseURL; the version prefix is optional so a bare host also works. */
function routeOf(method: string, path: string): Route | undefined {
  if (method === 'POST') {
    if (/^(\/v1)?\/chat\/completions$/.test(path)) return { family: 'openai', kind: 'chat', adapter: openaiChat }
    if (/^(\/v1)?\/responses$/.test(path)) return { family: 'openai', kind: 'chat', adapter: openaiResponses }
    if (/^(\/v1)?\/messages$/.test(path)) return { family: 'anthropic', kind: 'chat', adapter: anthropic }
    if (/^(\/v1)?\/messages\/count_tokens$/.test(path)) return { family: 'anthropic', kind: 'count' }
    // @ai-sdk/google: `${baseURL}/models/${id}:generateContent`, or `${baseURL}/${id}` when the id already has a slash.
    const g = /^(?:\/v1beta|\/v1)?\/(.+):(generateContent|streamGenerateContent|countTokens)$/.exec(path)
    if (g) {
      const model = decodeURIComponent(g[1] ?? '').replace(/^models\//, '')
      if (g[2] === 'countTokens') return { family: 'gemini', kind: 'count', model }
      return { family: 'gemini', kind: 'chat', adapter: gemini, model, stream: g[2] === 'streamGenerateContent' }
    }
  }
  if (method === 'GET' && /^(\/v1)?\/models$/.test(path)) return { family: 'openai', kind: 'models' }
  if (method === 'GET' && path === '/v1beta/models') return { family: 'gemini', kind: 'models' }
  return undefined
}

/** The reply length a request asks for, in any of the wire formats (0 when it asks for none). */
function requestedOutput(body: Record<string, unknown>): number {
  const config = asRecord(body.generationConfig)
  const n = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens ?? config.maxOutputTokens
  return typeof n === 'number' && n > 0 ? n : 0
}

/** Each provider's own words for a request longer than the model's window. */
function overflowMessage(family: Family, window: number, input: number, output: number): string {
  if (family === 'anthropic') return `prompt is too long: ${input} tokens > ${window - output} maximum`
  if (family === 'gemini') {
    return `The input token count (${input}) exceeds the maximum number of tokens allowed (${window - output}).`
  }
  return (
    `This model's maximum context length is ${window} tokens. However, you requested ${input + output} tokens ` +
    `(${input} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`
  )
}

function errorBody(family: Family, kind: ErrorKind, message: string): unknown {
  if (family === 'anthropic') return anthropicError(kind, message)
  if (family === 'gemini') return geminiError(kind, message, statusOf[kind])
  return openaiError(kind, message)
}

function apiKeyOf(family: Family, req: IncomingMessage, url: URL): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]
  const header = (name: string) => {
    const v = req.headers[name]
    return Array.isArray(v) ? v[0] : v
  }
  if (family === 'anthropic') return header('x-api-key') ?? bearer
  if (family === 'gemini') return header('x-goog-api-key') ?? url.searchParams.get('key') ?? undefined
  return bearer
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key'])

function safeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers)) {
    if (!SECRET_HEADERS.has(k) && v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const badKey = options.badKey ?? 'bad-key'
  const requireKey = options.requireKey ?? true
  const models = options.models ?? [
    'fake-model',
    'gpt-4o-mini',
    'claude-sonnet-4-5',
    'gemini-2.5-flash',
    'llama3.2:latest'
  ]
  const log = options.log ?? (() => {})
  const queue = new ScriptQueue()
  const titleQueue = new ScriptQueue()
  const summaryQueue = new ScriptQueue()
  const requests: RecordedRequest[] = []
  const titleRequests: RecordedRequest[] = []
  const probes: ProbeRequest[] = []
  const enqueue = (steps: ScriptStep[]) => {
    queue.push(steps.filter((s) => s.for !== 'title' && s.for !== 'summary'))
    titleQueue.push(steps.filter((s) => s.for === 'title'))
    summaryQueue.push(steps.filter((s) => s.for === 'summary'))
  }
  // One controller per in-flight response: aborted when the client hangs up or close() runs.
  const inflight = new Set<AbortController>()
  let seq = 0
  let usageFactor = options.usageFactor ?? 1
  let contextWindow = options.contextWindow ?? null
  /** The server's own count of a request's input: its estimate at the configured factor. */
  const countInput = (messages: Parameters<typeof estimateInputTokens>[0]) =>
    Math.max(1, Math.round(estimateInputTokens(messages) * usageFactor))
  const promptCache = new PromptCache(options.now)
  const caching = options.cache ?? true

  async function handleChat(
    route: Route,
    adapter: ChatAdapter,
    body: Record<string, unknown>,
    rec: RecordedRequest,
    res: ServerResponse
  ) {
    const parsed = adapter.parse(body, route.model)
    const stream = route.stream ?? parsed.stream
    rec.model = parsed.model
    rec.stream = stream
    rec.attachments = parsed.messages.flatMap((m, message) =>
      (m.attachments ?? []).map((a) => ({ message, role: m.role, ...a }))
    )
    const fail = (kind: ErrorKind, message: string, headers?: Record<string, string>) =>
      sendJson(res, statusOf[kind], errorBody(route.family, kind, message), headers)
    const blocks = adapter.provider === 'anthropic' ? anthropicCacheBlocks(body) : []
    const breakpoints = blocks.filter((b) => b.ttlMs !== undefined).length
    if (breakpoints > MAX_BREAKPOINTS) {
      return fail(
        'bad_request',
        `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`
      )
    }
    let plan: Plan
    if (isTitleRequest(parsed.messages)) {
      requests.splice(requests.indexOf(rec), 1)
      titleRequests.push(rec)
      plan = resolvePlan(titleQueue.next() ?? { reply: defaultTitle(parsed.messages) }, parsed.messages)
    } else if (isSummaryRequest(parsed.messages) && summaryQueue.pending > 0) {
      plan = resolvePlan(summaryQueue.next(), parsed.messages)
    } else if (isSummaryRequest(parsed.messages) && options.autoSummaries) {
      // Benchmarks script the chat's replies only; summaries must not eat them.
      const summary = autoSummary(parsed.messages, requestedOutput(body) * 4)
      plan = resolvePlan({ reply: summary }, parsed.messages)
    } else {
      plan = resolvePlan(queue.next(), parsed.messages)
    }
    const turn: Turn = {
      id: `fake${String(rec.seq).padStart(6, '0')}`,
      model: parsed.model,
      created: Math.floor(Date.now() / 1000),
      reply: plan.reply,
      chunks: plan.chunks,
      inputTokens: plan.usage?.input ?? countInput(parsed.messages),
      outputTokens: plan.usage?.output ?? estimateOutputTokens(plan.reply),
      includeUsage: parsed.includeUsage
    }
    rec.outcome = plan.fault ?? 'ok'
    rec.reply = plan.reply
    rec.inputTokens = turn.inputTokens
    log(`${rec.provider} ${parsed.model}${stream ? ' (stream)' : ''} -> ${rec.outcome}`)

    if (plan.fault === 'http401') return fail('auth', 'Invalid API key (scripted by the fake provider).')
    if (plan.fault === 'http429') {
      return fail('rate_limit', 'Rate limit reached (scripted by the fake provider).', {
        'retry-after': String(plan.retryAfterSeconds)
      })
    }
    if (plan.fault === 'http500') return fail('server', 'Internal server error (scripted by the fake provider).')
    if (contextWindow !== null) {
      const output = requestedOutput(body)
      if (turn.inputTokens + output > contextWindow) {
        rec.outcome = 'error'
        return fail('bad_request', overflowMessage(route.family, contextWindow, turn.inputTokens, output))
      }
    }
    // Only a request the model actually reads touches the cache: not a refused one.
    const cached = cacheUsage({
      cache: caching ? promptCache : null,
      provider: adapter.provider,
      model: parsed.model,
      body,
      messages: parsed.messages,
      blocks,
      total: turn.inputTokens,
      scale: (tokens) => Math.round(tokens * usageFactor)
    })
    rec.cache = { read: cached.read, write: cached.write, breakpoints }
    if (caching) turn.cache = { read: cached.read, write: cached.write, write1h: cached.write1h }

    const ac = new AbortController()
    inflight.add(ac)
    res.on('close', () => {
      ac.abort()
      inflight.delete(ac)
    })
    const fault = plan.fault === 'stall' || plan.fault === 'cut' ? plan.fault : undefined
    if (stream) return runStream(res, adapter.stream(turn), { delayMs: plan.delayMs, fault, signal: ac.signal })
    if (fault === 'stall') return waitForAbort(ac.signal)
    const text = JSON.stringify(adapter.json(turn))
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    if (fault === 'cut') {
      res.write(text.slice(0, Math.floor(text.length / 2)))
      return cutConnection(res)
    }
    res.end(text)
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, requests)
    if (req.method === 'POST' && path === '/__reset') {
      promptCache.clear()
      queue.clear()
      titleQueue.clear()
      summaryQueue.clear()
      requests.length = 0
      titleRequests.length = 0
      probes.length = 0
      return sendJson(res, 200, { ok: true })
    }
    if (req.method === 'POST' && path === '/__cache/clear') {
      promptCache.clear()
      return sendJson(res, 200, { ok: true })
    }
    if (req.method === 'POST' && path === '/__cache/advance') {
      const ms = Number(asRecord(JSON.parse((await readBody(req)) || '{}')).ms)
      if (!(ms >= 0)) return sendJson(res, 400, { ok: false, error: 'ms must be a non-negative number' })
      promptCache.advance(ms)
      return sendJson(res, 200, { ok: true, ms })
    }
    if (req.method === 'POST' && path === '/__usage') {
      const factor = Number(asRecord(JSON.parse((await readBody(req)) || '{}')).factor)
      if (!(factor > 0)) return sendJson(res, 400, { ok: false, error: 'factor must be a positive number' })
      usageFactor = factor
      return sendJson(res, 200, { ok: true, factor })
    }
    if (req.method === 'POST' && path === '/__script') {
      try {
        const steps = parseSteps(JSON.parse((await readBody(req)) || 'null'))
        enqueue(steps)
        return sendJson(res, 200, {
          ok: true,
          queued: steps.length,
          pending: queue.pending + titleQueue.pending + summaryQueue.pending
        })
      } catch (e) {
        return sendJson(res, 400, { ok: false, error: e instanceof Error ? e.message : String(e) })
      }
    }
    return sendJson(res, 404, { ok: false, error: `no control endpoint ${req.method} ${path}` })
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid')
    const path = url.pathname.replace(/\/+$/, '') || '/'
    if (path.startsWith('/__')) return handleControl(req, res, path)

    const probeBody = isProbePath(path) && req.method === 'POST' ? await readBody(req) : ''
    if (isProbePath(path)) probes.push({ method: req.method ?? 'GET', path, body: probeBody })
    const local = options.localServer
    if (local?.kind === 'ollama-model-info' && path === '/api/ps') return sendJson(res, 200, { models: [] })
    if (local?.kind === 'ollama-model-info' && req.method === 'POST' && path === '/api/show') {
      const asked = (JSON.parse(probeBody || '{}') as { model?: string }).model ?? ''
      const n = local.windows[asked]
      return n
        ? sendJson(res, 200, {
            parameters: 'stop "<|eot_id|>"',
            model_info: { 'general.architecture': 'llama', 'llama.context_length': n }
          })
        : sendJson(res, 404, { error: 'model not found' })
    }
    if (local && req.method === 'GET') {
      const windows = Object.entries(local.windows)
      if (local.kind === 'ollama' && path === '/api/ps') {
        return sendJson(res, 200, { models: windows.map(([name, n]) => ({ name, model: name, context_length: n })) })
      }
      if (local.kind === 'lm-studio' && path === '/api/v0/models') {
        return sendJson(res, 200, {
          object: 'list',
          data: windows.map(([id, n]) => ({
            id,
            object: 'model',
            type: 'llm',
            state: 'loaded',
            loaded_context_length: n,
            max_context_length: n * 4
          }))
        })
      }
      const lm = /^\/api\/v0\/models\/(.+)$/.exec(path)
      if (local.kind === 'lm-studio' && lm) {
        const n = local.windows[decodeURIComponent(lm[1]!)]
        return n
          ? sendJson(res, 200, { id: lm[1], state: 'loaded', loaded_context_length: n, max_context_length: n * 4 })
          : sendJson(res, 404, { error: 'model not found' })
      }
      if (local.kind === 'llama.cpp' && path === '/props')
        return sendJson(res, 200, { default_generation_settings: { n_ctx: windows[0]?.[1] } })
    }

    const route = routeOf(req.method ?? 'GET', path)
    if (!route) return sendJson(res, 404, openaiError('not_found', `Fake provider: no route for ${req.method} ${path}`))

    const raw = req.method === 'POST' ? await readBody(req) : ''
    let body: Record<string, unknown> = {}
    let badJson = false
    try {
      body = raw ? asRecord(JSON.parse(raw)) : {}
    } catch {
      badJson = true
    }
    const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'key'))
    const provider =
      route.kind === 'models'
        ? 'openai-models'
        : route.kind === 'count'
          ? `${route.family}-count-tokens`
          : (route.adapter?.provider ?? route.family)
    const rec: RecordedRequest = {
      seq: ++seq,
      provider,
      method: req.method ?? 'GET',
      path,
      query,
      model: route.model ?? (typeof body.model === 'string' ? body.model : null),
      stream: false,
      body: badJson ? raw : body,
      headers: safeHeaders(req),
      outcome: 'error'
    }
    requests.push(rec)

    const fail = (kind: ErrorKind, message: string) =>
      sendJson(res, statusOf[kind], errorBody(route.family, kind, message))
    // Anthropic lists its models at the same path as OpenAI, with its own key header.
    const key = apiKeyOf(route.kind === 'models' && req.headers['x-api-key'] ? 'anthropic' : route.family, req, url)
    if (!key && requireKey) return fail('auth', 'Missing API key.')
    if (key === badKey) return fail('auth', 'Invalid API key.')
    if (badJson) return fail('bad_request', 'Request body is not valid JSON.')
    const cacheField = options.rejectCacheFields ? cacheFieldIn(body) : undefined
    if (cacheField) return fail('bad_request', `Unrecognized request argument supplied: ${cacheField}`)

    if (route.kind === 'models') {
      rec.outcome = 'ok'
      if (route.family === 'gemini')
        return sendJson(res, 200, { models: models.map((id) => ({ name: `models/${id}` })) })
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-provider' }))
      })
    }
    if (route.kind === 'count') {
      rec.outcome = 'ok'
      const tokens = countInput(route.family === 'gemini' ? geminiMessages(body) : anthropicMessages(body))
      rec.inputTokens = tokens
      if (route.family === 'gemini')
        return sendJson(res, 200, {
          totalTokens: tokens,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }]
        })
      return sendJson(res, 200, { input_tokens: tokens })
    }
    return handleChat(route, route.adapter ?? openaiChat, body, rec, res)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`fake provider error: ${e instanceof Error ? e.stack : String(e)}`)
      if (!res.headersSent) sendJson(res, 500, openaiError('server', 'Fake provider crashed; see its log.'))
      else res.destroy()
    })
  })

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${host}:${port}`

  return {
    url,
    port,
    baseURLs: { openai: `${url}/v1`, anthropic: `${url}/v1`, google: `${url}/v1beta`, openaiCompatible: `${url}/v1` },
    requests,
    titleRequests,
    probes,
    script: (steps) => enqueue(parseSteps(steps)),
    setUsageFactor: (factor: number) => {
      usageFactor = factor
    },
    setContextWindow: (window: number | null) => {
      contextWindow = window
    },
    advanceCache: (ms: number) => promptCache.advance(ms),
    clearCache: () => promptCache.clear(),
    reset: () => {
      promptCache.clear()
      usageFactor = options.usageFactor ?? 1
      contextWindow = options.contextWindow ?? null
      queue.clear()
      titleQueue.clear()
      summaryQueue.clear()
      requests.length = 0
      titleRequests.length = 0
      probes.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ac of inflight) ac.abort()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
