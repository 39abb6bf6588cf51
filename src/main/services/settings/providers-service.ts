import {
  PROVIDER_LABELS,
  providerIdSchema,
  type ProviderCheck,
  type ProviderId,
  type ProviderStatus
} from '../../../shared/domain/provider'
import type { ProviderConnection } from '../../providers/create-language-model'
import { checkProvider } from './provider-check'
import type { Clock } from '../service-deps'
import type { SecretStore } from './secret-store'
import type { SettingsService } from './settings-service'

/** The environment variables each provider reads, as the AI SDK documents them. */
export const PROVIDER_ENV: Record<ProviderId, { key: string; baseURL: string }> = {
  openai: { key: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseURL: 'ANTHROPIC_BASE_URL' },
  google: { key: 'GOOGLE_GENERATIVE_AI_API_KEY', baseURL: 'GOOGLE_GENERATIVE_AI_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_COMPATIBLE_API_KEY', baseURL: 'OPENAI_COMPATIBLE_BASE_URL' }
}

const secretName = (provider: ProviderId) => `provider.${provider}.apiKey`

export type ProvidersService = ReturnType<typeof createProvidersService>

/**
 * Where each provider's key and endpoint come from: Settings first, then the environment. Keys
 * stay in the main process; the renderer only learns whether one is set and its last four characters.
 */
export function createProvidersService(deps: {
  secrets: SecretStore
  settings: SettingsService
  env: NodeJS.ProcessEnv
  clock: Clock
  fetch?: typeof fetch
}) {
  const { secrets, settings, env, clock } = deps
  const unchecked: ProviderCheck = { state: 'unchecked', at: null, latencyMs: null, models: null, message: null }
  /** The last check per provider, forgotten when its key or address changes. */
  const checks = new Map<ProviderId, ProviderCheck>()

  function connection(provider: ProviderId): ProviderConnection & {
    keySource: ProviderStatus['keySource']
    baseURLSource: ProviderStatus['baseURLSource']
  } {
    const storedKey = secrets.get(secretName(provider))
    const envKey = env[PROVIDER_ENV[provider].key]?.trim() || undefined
    const storedURL = settings.get().providerBaseURLs[provider] ?? undefined
    const envURL = env[PROVIDER_ENV[provider].baseURL]?.trim() || undefined
    return {
      provider,
      apiKey: storedKey ?? envKey,
      baseURL: storedURL ?? envURL,
      keySource: storedKey ? 'settings' : envKey ? 'environment' : null,
      baseURLSource: storedURL ? 'settings' : envURL ? 'environment' : null
    }
  }

  function status(provider: ProviderId): ProviderStatus {
    const c = connection(provider)
    const key = c.apiKey
    return {
      id: provider,
      label: PROVIDER_LABELS[provider],
      keySet: !!key,
      keyHint: key ? key.slice(-4) : null,
      keySource: c.keySource,
      baseURL: c.baseURL ?? null,
      baseURLSource: c.baseURLSource,
      // Local servers usually need no key, only an address.
      ready: provider === 'openai-compatible' ? !!c.baseURL : !!key,
      check: checks.get(provider) ?? unchecked,
      ...(c.keySource !== 'settings' ? keyProblem() : {})
    }
  }

  /** A damaged secrets file makes every saved key unavailable: each provider without one says why. */
  function keyProblem(): { keyProblem?: string } {
    const problem = secrets.problem?.()
    return problem ? { keyProblem: problem } : {}
  }

  /**
   * Lists the provider's models with its key and address, and remembers how that went. With `typed`
   * (a key or address typed in Settings and not saved yet), those are tested instead and nothing is
   * remembered: the saved connection was not the one checked.
   */
  async function test(
    provider: ProviderId,
    typed: { apiKey?: string; baseURL?: string } = {}
  ): Promise<ProviderStatus> {
    const started = clock.now()
    const trying = typed.apiKey !== undefined || typed.baseURL !== undefined
    if (!trying) checks.set(provider, { ...unchecked, state: 'checking' })
    const { keySource: _k, baseURLSource: _b, ...saved } = connection(provider)
    const c = {
      ...saved,
      ...(typed.apiKey?.trim() ? { apiKey: typed.apiKey.trim() } : {}),
      // An emptied address means the provider's default (the environment's, else the SDK's).
      ...(typed.baseURL !== undefined
        ? {
            baseURL:
              typed.baseURL.trim().replace(/\/+$/, '') || env[PROVIDER_ENV[provider].baseURL]?.trim() || undefined
          }
        : {})
    }
    const outcome = await checkProvider(c, deps.fetch ?? fetch)
    const at = clock.now()
    const check: ProviderCheck = outcome.ok
      ? { state: 'ok', at, latencyMs: at - started, models: outcome.models, message: null }
      : { state: 'failed', at, latencyMs: null, models: null, message: outcome.message }
    if (!trying) checks.set(provider, check)
    return { ...status(provider), check }
  }

  return {
    connection: (provider: ProviderId): ProviderConnection => {
      const { keySource: _k, baseURLSource: _b, ...rest } = connection(provider)
      return rest
    },
    status,
    list: (): ProviderStatus[] => providerIdSchema.options.map(status),
    test,

    /** Sets or clears (null) a key and/or base URL; the key goes to the secret store only. */
    update(provider: ProviderId, change: { apiKey?: string | null; baseURL?: string | null }): ProviderStatus {
      if (change.apiKey !== undefined) {
        if (change.apiKey === null || change.apiKey.trim() === '') secrets.delete(secretName(provider))
        else secrets.set(secretName(provider), change.apiKey.trim())
      }
      if (change.baseURL !== undefined) {
        const urls = { ...settings.get().providerBaseURLs }
        if (change.baseURL === null || change.baseURL.trim() === '') delete urls[provider]
        else urls[provider] = change.baseURL.trim().replace(/\/+$/, '')
        settings.update({ providerBaseURLs: urls })
      }
      checks.delete(provider)
      return status(provider)
    }
  }
}
