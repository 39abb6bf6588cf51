import { providerIdSchema, type ProviderId } from '../../../shared/domain/provider'
import type { ProvidersService } from './providers-service'
import type { SettingsService } from './settings-service'

/** A sensible first model per hosted provider: capable, inexpensive, with a large window. */
const STARTER_MODELS: Record<Exclude<ProviderId, 'openai-compatible'>, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.5-flash'
}

/**
 * Where a new chat's model comes from: the default saved in Settings, the model last chosen in a
 * chat, or (before either) the first provider that can chat.
 */
export type NewChatSource = 'default' | 'last-chosen' | 'first-ready'

export interface NewChatModel {
  provider: ProviderId
  modelId: string
  source: NewChatSource
}

/**
 * The model a new chat starts with. The default the user saved in Settings wins; without one, the
 * model last chosen in a chat's picker, while its provider can still chat (and a local server still
 * lists it). Before any choice, the built-in default when its provider is set up, else the first
 * provider that is (with only a local server configured, one of its models), so the first message
 * does not fail.
 */
export function createNewChatModel(deps: {
  settings: SettingsService
  providers: ProvidersService
  /** The local server's chat models, as the models service last heard them. */
  models: { serverModelIds(): readonly string[] }
}) {
  const ready = (provider: ProviderId) => deps.providers.status(provider).ready

  /** Whether a chat started on this model could reply: its provider is set up and still serves it. */
  function available(
    model: { provider: ProviderId; modelId: string },
    own: readonly { provider: string; id: string }[]
  ) {
    if (!ready(model.provider)) return false
    if (model.provider !== 'openai-compatible') return true
    const listed = deps.models.serverModelIds()
    return (
      listed.length === 0 ||
      listed.includes(model.modelId) ||
      own.some((m) => m.provider === model.provider && m.id === model.modelId)
    )
  }

  return (): NewChatModel => {
    const s = deps.settings.get()
    const builtIn = { provider: s.defaultProvider, modelId: s.defaultModel }
    if (deps.settings.isStored('defaultProvider') || deps.settings.isStored('defaultModel'))
      return { ...builtIn, source: 'default' }
    const last = s.lastChatModel
    // With nothing set up at all, the choice still stands: it says which key the user is about to add.
    if (last && (available(last, s.customModels) || !providerIdSchema.options.some(ready)))
      return { ...last, source: 'last-chosen' }
    if (ready(builtIn.provider)) return { ...builtIn, source: 'first-ready' }
    for (const provider of providerIdSchema.options) {
      if (!ready(provider)) continue
      if (provider !== 'openai-compatible')
        return { provider, modelId: STARTER_MODELS[provider], source: 'first-ready' }
      const listed = deps.models.serverModelIds()[0]
      if (listed) return { provider, modelId: listed, source: 'first-ready' }
    }
    return { ...builtIn, source: 'first-ready' }
  }
}
