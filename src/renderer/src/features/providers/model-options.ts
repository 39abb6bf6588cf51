import type { ModelInfo, ProviderId, ProviderStatus } from '../../../../shared/domain/provider'
import { formatTokens } from '../../lib/format-tokens'
import { PROVIDER_LABELS, PROVIDER_ORDER, missingLabel, modelValue } from '../../lib/providers'

export interface ModelOption {
  value: string
  label: string
}

export interface ModelGroup {
  provider: ProviderId
  label: string
  ready: boolean
  options: ModelOption[]
}

/** "GPT-4o mini · 128k"; models a local server lists have no known window. */
export function modelOptionLabel(model: Pick<ModelInfo, 'label' | 'contextWindow' | 'source'>): string {
  return model.source === 'server' ? `${model.label} · window unknown` : `${model.label} · ${formatTokens(model.contextWindow)}`
}

/**
 * The picker's groups, one per provider in a fixed order. Providers that cannot chat yet stay
 * listed but say what they miss. The current model is always there, even when no list names it.
 */
export function groupModels(
  models: readonly ModelInfo[],
  providers: readonly ProviderStatus[],
  current: { provider: ProviderId; modelId: string } | null
): ModelGroup[] {
  return PROVIDER_ORDER.map((provider) => {
    const status = providers.find((p) => p.id === provider)
    // Until the statuses arrive, assume ready rather than flash "needs key" everywhere.
    const ready = status?.ready ?? true
    const suffix = ready ? '' : ` (${missingLabel(provider)})`
    const own = models.filter((m) => m.provider === provider)
    const options = own.map((m) => ({ value: modelValue(provider, m.id), label: modelOptionLabel(m) + suffix }))
    if (current?.provider === provider && !own.some((m) => m.id === current.modelId)) {
      options.unshift({ value: modelValue(provider, current.modelId), label: current.modelId + suffix })
    }
    const label = ready ? PROVIDER_LABELS[provider] : `${PROVIDER_LABELS[provider]} — ${missingLabel(provider)}`
    return { provider, label, ready, options }
  }).filter((group) => group.options.length > 0)
}
