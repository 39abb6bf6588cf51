import type { ModelInfo, ProviderId } from '../../../shared/domain/provider'
import { listModels, resolveModel, userModelSchema, type ModelSpec } from '../../models/catalog'
import { identifyLocalServer, localWindow, type LocalServer } from './local-window'
import { isEmbeddingModel } from '../../models/embedding-models'
import { createNewChatModel, type NewChatModel } from './new-chat-model'
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
  /**
   * What probing the local server told, per model: its window, or null when it had nothing to tell.
   * Each model is probed once per connection (address and key); a change of either forgets it all.
   */
  const probed = new Map<string, { window: number; from: string } | null>()
  const asking = new Map<string, Promise<void>>()
  /** Which server answers at the address (Ollama, LM Studio, llama.cpp or another), asked once per connection. */
  let server: Promise<LocalServer | undefined> | undefined
  let connectionKey: string | undefined
  /** Bumped when the connection changes, so an answer about the old one is dropped. */
  let generation = 0

  /** The local server's address, forgetting what was probed when the connection changed. */
  function localBaseURL(): string | undefined {
    const { baseURL, apiKey } = deps.providers.connection('openai-compatible')
    const key = JSON.stringify([baseURL ?? null, apiKey ?? null])
    if (key !== connectionKey) {
      connectionKey = key
      generation++
      probed.clear()
      asking.clear()
      server = undefined
    }
    return baseURL
  }

  /**
   * Asks the local server for a model's window, once: resolves when it answered or gave up. A
   * server that did not answer at all (down) is asked again next time; one that answered is not.
   */
  function askWindow(modelId: string): Promise<void> {
    const baseURL = localBaseURL()
    if (!baseURL || probed.has(modelId)) return Promise.resolve()
    const running = asking.get(modelId)
    if (running) return running
    const mine = generation
    const ask = (async () => {
      if (!server) {
        const identifying = identifyLocalServer(doFetch, baseURL)
        server = identifying
        // Nobody answered: the next ask tries again.
        void identifying.then((found) => {
          if (!found && server === identifying) server = undefined
        })
      }
      const found = await server
      if (!found || mine !== generation) return
      const answer = await localWindow(doFetch, baseURL, found, modelId)
      if (!answer.answered || mine !== generation) return
      probed.set(modelId, answer.found ? { window: answer.found.window, from: answer.found.from } : null)
      if (!answer.found) return
      deps.log.info(
        `${answer.found.server} runs ${modelId} with a ${answer.found.window}-token window (${answer.found.from})`
      )
      deps.onWindowChange?.(modelId)
    })()
      .catch((err: unknown) => deps.log.warn('Cannot ask the local server for a window', err))
      .finally(() => {
        if (asking.get(modelId) === ask) asking.delete(modelId)
      })
    asking.set(modelId, ask)
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
    const local = provider === 'openai-compatible'
    // Read after localBaseURL(), which forgets the windows of a connection that changed.
    if (local) localBaseURL()
    const told = local ? (probed.get(modelId) ?? undefined) : undefined
    const reported = told?.window
    if (local && !probed.has(modelId)) void askWindow(modelId)
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

  /** The chat models the local server listed last time it was asked, for a new chat's default. */
  let lastServerIds: string[] = []

  /**
   * Chat models an OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp) says it serves:
   * the embedding models it lists beside them cannot chat, and are left out.
   */
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
      const ids = (body.data ?? [])
        .map((m) => m.id)
        .filter((id): id is string => typeof id === 'string' && !isEmbeddingModel(id))
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
    /** The chat models the local server listed when last asked (empty until then). */
    serverModelIds,
    /** The model a new chat starts on now, and why. */
    newChat: newChatModel,

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

    async list(provider?: ProviderId): Promise<{ models: ModelInfo[]; warnings: string[]; newChat: NewChatModel }> {
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
