import type { ModelInfo, ProviderId } from '../../shared/domain/provider'
import { listModels, resolveModel, userModelSchema, type ModelSpec } from '../models/catalog'
import type { Logger } from './service-deps'
import type { ProvidersService } from './providers-service'
import type { SettingsService } from './settings-service'

/** Assumed for a model nobody described: small (Ollama serves 4,096 tokens unless told otherwise), so budgets err on the safe side. */
export const UNKNOWN_MODEL_WINDOW = 4096
export const UNKNOWN_MODEL_MAX_OUTPUT = 1024
const SERVER_LIST_TIMEOUT_MS = 3000

export type ModelsService = ReturnType<typeof createModelsService>

function toInfo(spec: ModelSpec, source: ModelInfo['source']): ModelInfo {
  return {
    provider: spec.provider,
    id: spec.id,
    label: spec.label,
    contextWindow: spec.contextWindow,
    maxOutput: spec.maxOutput,
    tokenizer: spec.tokenizer,
    source
  }
}

export function createModelsService(deps: {
  settings: SettingsService
  providers: ProvidersService
  log: Logger
  fetch?: typeof fetch
}) {
  const doFetch = deps.fetch ?? fetch

  const userModels = (): ModelSpec[] => deps.settings.get().customModels.map((m) => userModelSchema.parse(m))

  /** The spec a chat's budget uses; unknown models get a small, conservative one. */
  function spec(provider: ProviderId, modelId: string): ModelSpec & { known: boolean } {
    const found = resolveModel(provider, modelId, userModels())
    if (found) return { ...found, known: true }
    return {
      ...userModelSchema.parse({
        provider,
        id: modelId,
        contextWindow: UNKNOWN_MODEL_WINDOW,
        maxOutput: UNKNOWN_MODEL_MAX_OUTPUT
      }),
      known: false
    }
  }

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
      return { ids }
    } catch (err) {
      deps.log.warn('Cannot list the local server models', err instanceof Error ? err.message : err)
      return { ids: [], warning: `Cannot reach the local server at ${connection.baseURL} to list its models.` }
    }
  }

  return {
    spec,

    async list(provider?: ProviderId): Promise<{ models: ModelInfo[]; warnings: string[] }> {
      const users = userModels()
      const userKeys = new Set(users.map((m) => `${m.provider}:${m.id}`))
      const models = listModels(users).map((m) => toInfo(m, userKeys.has(`${m.provider}:${m.id}`) ? 'custom' : 'catalog'))
      const warnings: string[] = []
      if (!provider || provider === 'openai-compatible') {
        const listed = await serverModels()
        if (listed.warning) warnings.push(listed.warning)
        const known = new Set(models.map((m) => `${m.provider}:${m.id}`))
        for (const id of listed.ids) {
          if (!known.has(`openai-compatible:${id}`)) models.push(toInfo(spec('openai-compatible', id), 'server'))
        }
      }
      return { models: provider ? models.filter((m) => m.provider === provider) : models, warnings }
    }
  }
}
