import type { ModelInfo, ProviderId } from '../../../shared/domain/provider'
import { listModels, resolveModel, userModelSchema, type ModelSpec } from '../../models/catalog'
import { detectLocalWindow } from './local-window'
import { createNewChatModel } from './new-chat-model'
import type { Logger } from '../service-deps'
import type { ProvidersService } from './providers-service'
import type { SettingsService } from './settings-service'

/** Assumed for a model nobody described: small (Ollama serves 4,096 tokens unless told otherwise), so budgets err on the safe side. */
export const UNKNOWN_MODEL_WINDOW = 4096
export const UNKNOWN_MODEL_MAX_OUTPUT = 1024
const SERVER_LIST_TIMEOUT_MS = 3000

export type ModelsService = ReturnType<typeof createModelsService>

type SpecWithSource = ModelSpec & { known: boolean; windowSource: ModelInfo['windowSource']; windowFrom?: string }

function toInfo(
  spec: ModelSpec & { windowSource?: ModelInfo['windowSource']; windowFrom?: string },
  source: ModelInfo['source']
): ModelInfo {
  return {
    windowSource: spec.windowSource ?? (source === 'custom' ? 'custom' : 'catalog'),
    ...(spec.windowFrom ? { windowFrom: spec.windowFrom } : {}),
    provider: spec.provider,
    id: spec.id,
    label: spec.label,
    contextWindow: spec.contextWindow,
    maxOutput: spec.maxOutput,
    tokenizer: spec.tokenizer,
    source,
    vision: spec.vision
  }
}

export function createModelsService(deps: {
  settings: SettingsService
  providers: ProvidersService
  log: Logger
  fetch?: typeof fetch
  /** A local server told a model's window for the first time (or a different one): budgets change. */
  onWindowChange?: (modelId: string) => void
}) {
  const doFetch = deps.fetch ?? fetch
  /** Windows local servers reported, per address and model; asked again when the list is read. */
  const serverWindows = new Map<string, { window: number; from: string }>()
  const asking = new Map<string, Promise<void>>()
  const windowKey = (modelId: string) => `${deps.providers.connection('openai-compatible').baseURL ?? ''}|${modelId}`

  /** Asks the local server for a model's window; resolves when it answered or gave up. */
  function askWindow(modelId: string): Promise<void> {
    const baseURL = deps.providers.connection('openai-compatible').baseURL
    if (!baseURL) return Promise.resolve()
    const key = windowKey(modelId)
    const running = asking.get(key)
    if (running) return running
    const ask = detectLocalWindow(doFetch, baseURL, modelId)
      .then((found) => {
        if (!found || serverWindows.get(key)?.window === found.window) return
        serverWindows.set(key, { window: found.window, from: found.from })
        deps.log.info(`${found.server} runs ${modelId} with a ${found.window}-token window (${found.from})`)
        deps.onWindowChange?.(modelId)
      })
      .catch((err: unknown) => deps.log.warn('Cannot ask the local server for a window', err))
      .finally(() => asking.delete(key))
    asking.set(key, ask)
    return ask
  }

  const userModels = (): ModelSpec[] => deps.settings.get().customModels.map((m) => userModelSchema.parse(m))

  /**
   * The spec a chat's budget uses. The user's own model and the catalog come first; a local
   * server's model takes the window the server runs it with; a model nobody describes gets a
   * small, conservative one (and the server is asked, for the next request).
   */
  function spec(provider: ProviderId, modelId: string): SpecWithSource {
    const users = userModels()
    const found = resolveModel(provider, modelId, users)
    if (found) {
      const own = users.some((m) => m.provider === provider && m.id === modelId)
      return { ...found, known: true, windowSource: own ? 'custom' : 'catalog' }
    }
    const told = provider === 'openai-compatible' ? serverWindows.get(windowKey(modelId)) : undefined
    const reported = told?.window
    if (provider === 'openai-compatible' && reported === undefined) void askWindow(modelId)
    return {
      ...userModelSchema.parse({
        provider,
        id: modelId,
        contextWindow: reported ?? UNKNOWN_MODEL_WINDOW,
        maxOutput: Math.min(UNKNOWN_MODEL_MAX_OUTPUT, Math.floor((reported ?? UNKNOWN_MODEL_WINDOW) / 4))
      }),
      known: reported !== undefined,
      windowSource: reported !== undefined ? 'server' : 'assumed',
      ...(told ? { windowFrom: told.from } : {})
    }
  }

  /** What the local server listed last time it was asked, for a new chat's default. */
  let lastServerIds: string[] = []

  /** Models an OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp) says it serves. */
  async function serverModels(): Promise<{ ids: string[]; warning?: string }> {
    const connection = deps.providers.connection('openai-compatible')
    if (!connection.baseURL) return { ids: [] }
    try {
      const res = await doFetch(`${connection.baseURL.replace(/\/+$/, '')}/models`, {
        headers: connection.apiKey ? { Authorization: `Bearer ${connection.apiKey}` } : {},
        signal: AbortSignal.timeout(SERVER_LIST_TIMEOUT_MS)
      })
      if (!res.ok) return { ids: [], warning: `The local server answered ${res.status} when asked for its models.` }
      const body = (await res.json()) as { data?: Array<{ id?: unknown }> }
      const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string')
      lastServerIds = ids
      return { ids }
    } catch (err) {
      deps.log.warn('Cannot list the local server models', err instanceof Error ? err.message : err)
      return { ids: [], warning: `Cannot reach the local server at ${connection.baseURL} to list its models.` }
    }
  }

  const serverModelIds = (): readonly string[] => lastServerIds
  const newChatModel = createNewChatModel({
    settings: deps.settings,
    providers: deps.providers,
    models: { serverModelIds }
  })

  return {
    spec,
    /** The models the local server listed when last asked (empty until then). */
    serverModelIds,

    /** Every model known without asking anyone: the catalog, the user's own, and what the local server listed last. */
    known(): SpecWithSource[] {
      const listed = lastServerIds.map((id) => spec('openai-compatible', id))
      const users = userModels()
      const own = new Set(users.map((m) => `${m.provider}:${m.id}`))
      const all = listModels(users).map((m): SpecWithSource => ({
        ...m,
        known: true,
        windowSource: own.has(`${m.provider}:${m.id}`) ? 'custom' : 'catalog'
      }))
      return [...all, ...listed.filter((m) => !all.some((o) => o.provider === m.provider && o.id === m.id))]
    },

    async list(
      provider?: ProviderId
    ): Promise<{ models: ModelInfo[]; warnings: string[]; newChat: { provider: ProviderId; modelId: string } }> {
      const users = userModels()
      const userKeys = new Set(users.map((m) => `${m.provider}:${m.id}`))
      const models = listModels(users).map((m) =>
        toInfo(m, userKeys.has(`${m.provider}:${m.id}`) ? 'custom' : 'catalog')
      )
      const warnings: string[] = []
      if (!provider || provider === 'openai-compatible') {
        const listed = await serverModels()
        if (listed.warning) warnings.push(listed.warning)
        const known = new Set(models.map((m) => `${m.provider}:${m.id}`))
        await Promise.all(listed.ids.filter((id) => !known.has(`openai-compatible:${id}`)).map(askWindow))
        for (const id of listed.ids) {
          if (!known.has(`openai-compatible:${id}`)) models.push(toInfo(spec('openai-compatible', id), 'server'))
        }
      }
      return {
        models: provider ? models.filter((m) => m.provider === provider) : models,
        warnings,
        newChat: newChatModel()
      }
    }
  }
}
