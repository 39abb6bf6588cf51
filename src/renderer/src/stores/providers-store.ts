import { create } from 'zustand'
import type { RouteInput, RouteOutput } from '../../../shared/contract'
import type { ModelInfo, ProviderId, ProviderStatus } from '../../../shared/domain/provider'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'

type ProviderChange = Omit<RouteInput<'providers.update'>, 'provider'>

interface ProvidersState {
  /** Each provider's key and address status (never the key itself), in the server's order. */
  providers: ProviderStatus[]
  status: 'loading' | 'ready' | 'error'
  error: string | null
  /** Every model to pick from: the catalog, the user's own, and what a local server lists. */
  models: ModelInfo[]
  modelsStatus: 'loading' | 'ready' | 'error'
  /** Why some models may be missing (a local server that did not answer). */
  modelWarnings: string[]
  /** The model a new chat gets now, and why (the saved default, the last chosen in a chat, the first that can chat). */
  newChat: NonNullable<RouteOutput<'models.list'>['newChat']> | null
  load(): Promise<void>
  loadModels(): Promise<void>
  /** Sets or clears a key or address. Throws the ApiError (with per-field issues) when refused. */
  update(provider: ProviderId, change: ProviderChange): Promise<ProviderStatus>
  /** Lists the provider's models with its key and address ("Test connection"). */
  test(provider: ProviderId): Promise<ProviderStatus>
  /** The same check with a key or address typed but not saved: the saved status is left alone. */
  tryConnection(provider: ProviderId, typed: { apiKey?: string; baseURL?: string }): Promise<ProviderStatus>
}

let modelsSeq = 0
let providersSeq = 0
/** The first model list of this run: what a local server lists decides a new chat's model. */
let firstList: Promise<void> | null = null

/** Resolves once the models were listed once (or after `maxMs`, so a dead server never holds up a new chat). */
export function modelsListedOnce(maxMs = 4000): Promise<void> {
  if (!firstList || useProvidersStore.getState().modelsStatus !== 'loading') return Promise.resolve()
  return Promise.race([firstList, new Promise<void>((resolve) => setTimeout(resolve, maxMs))])
}

export const useProvidersStore = create<ProvidersState>()((set, get) => ({
  providers: [],
  status: 'loading',
  error: null,
  models: [],
  modelsStatus: 'loading',
  modelWarnings: [],
  newChat: null,

  async load() {
    const seq = ++providersSeq
    try {
      const providers = await api.request('providers.list', {})
      if (seq !== providersSeq) return
      set({ providers, status: 'ready', error: null })
    } catch (error) {
      if (seq !== providersSeq) return
      set((s) => ({ status: s.providers.length > 0 ? 'ready' : 'error', error: errorMessage(error) }))
    }
  },

  loadModels() {
    const listing = (async () => {
      const seq = ++modelsSeq
      try {
        const { models, warnings, newChat } = await api.request('models.list', {})
        if (seq !== modelsSeq) return
        set({ models, modelWarnings: warnings, modelsStatus: 'ready', newChat: newChat ?? null })
      } catch (error) {
        if (seq !== modelsSeq) return
        set((s) => ({
          modelsStatus: s.models.length > 0 ? 'ready' : 'error',
          modelWarnings: [`Could not list the models: ${errorMessage(error)}`]
        }))
      }
    })()
    firstList ??= listing
    return listing
  },

  async test(provider) {
    set((s) => ({
      providers: s.providers.map((p) =>
        p.id === provider ? { ...p, check: { ...p.check, state: 'checking' as const } } : p
      )
    }))
    const status = await api.request('providers.test', { provider })
    providersSeq++
    set((s) => ({ providers: s.providers.map((p) => (p.id === provider ? status : p)) }))
    return status
  },

  tryConnection: (provider, typed) => api.request('providers.test', { provider, ...typed }),

  async update(provider, change) {
    const status = await api.request('providers.update', { provider, ...change })
    providersSeq++ // an older list in flight must not undo this
    set((s) => ({ providers: s.providers.map((p) => (p.id === provider ? status : p)) }))
    // A new key or address can change what a local server lists, what is ready, and so the model new chats get.
    void get().loadModels()
    return status
  }
}))

/** The status of one provider, if loaded. */
export function useProviderStatus(provider: ProviderId | null | undefined): ProviderStatus | undefined {
  return useProvidersStore((s) => (provider ? s.providers.find((p) => p.id === provider) : undefined))
}
