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
 * The model a new chat starts with. The default the user chose wins; until they choose one, the
 * built-in default is used only when its provider is set up — otherwise the first provider that is
 * (with only a local server configured, one of its models), so the first message does not fail.
 */
export function createNewChatModel(deps: {
  settings: SettingsService
  providers: ProvidersService
  /** The local server's models, as the models service last heard them. */
  models: { serverModelIds(): readonly string[] }
}) {
  return (): { provider: ProviderId; modelId: string } => {
    const s = deps.settings.get()
    const chosen = { provider: s.defaultProvider, modelId: s.defaultModel }
    if (deps.settings.isStored('defaultProvider') || deps.settings.isStored('defaultModel')) return chosen
    if (deps.providers.status(chosen.provider).ready) return chosen
    for (const provider of providerIdSchema.options) {
      if (!deps.providers.status(provider).ready) continue
      if (provider !== 'openai-compatible') return { provider, modelId: STARTER_MODELS[provider] }
      const listed = deps.models.serverModelIds()[0]
      if (listed) return { provider, modelId: listed }
    }
    return chosen
  }
}
