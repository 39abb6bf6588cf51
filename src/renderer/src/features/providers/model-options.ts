import type { ModelInfo, ProviderId, ProviderStatus } from '../../../../shared/domain/provider'
import { formatTokens } from '../../lib/format-tokens'
import { PROVIDER_LABELS, PROVIDER_ORDER, missingLabel, modelValue } from '../../lib/providers'

export interface ModelOption {
  value: string
  provider: ProviderId
  modelId: string
  /** "GPT-4o mini" */
  name: string
  /** "GPT-4o mini · 128k", what the picker's button shows. */
  label: string
  /** "128k", or "window unknown" when nobody told it. */
  window: string
  /** Where the window came from, when a local server said: "Ollama, loaded model (/api/ps)". */
  windowFrom?: string
  vision: boolean
}

export interface ModelGroup {
  provider: ProviderId
  /** "Anthropic", or "Anthropic — needs key". */
  label: string
  ready: boolean
  options: ModelOption[]
}

/** "128k"; "window unknown" only when the budget is an assumption (a local server that did not say). */
export function modelWindowText(model: Pick<ModelInfo, 'contextWindow' | 'windowSource'>): string {
  return model.windowSource === 'assumed' ? 'window unknown' : formatTokens(model.contextWindow)
}

/** "GPT-4o mini · 128k". */
export function modelOptionLabel(model: Pick<ModelInfo, 'label' | 'contextWindow' | 'windowSource'>): string {
  return `${model.label} · ${modelWindowText(model)}`
}

function toOption(m: ModelInfo): ModelOption {
  return {
    value: modelValue(m.provider, m.id),
    provider: m.provider,
    modelId: m.id,
    name: m.label,
    label: modelOptionLabel(m),
    window: modelWindowText(m),
    ...(m.windowFrom ? { windowFrom: m.windowFrom } : {}),
    vision: m.vision ?? false
  }
}

/**
 * The picker's groups, one per provider: those that can chat first (in the fixed order), then the
 * ones still missing a key or an address, which say so. The current model is always there, even
 * when no list names it.
 */
export function groupModels(
  models: readonly ModelInfo[],
  providers: readonly ProviderStatus[],
  current: { provider: ProviderId; modelId: string } | null
): ModelGroup[] {
  const groups = PROVIDER_ORDER.map((provider) => {
    const status = providers.find((p) => p.id === provider)
    // Until the statuses arrive, assume ready rather than flash "needs key" everywhere.
    const ready = status?.ready ?? true
    const options = models.filter((m) => m.provider === provider).map(toOption)
    if (current?.provider === provider && !options.some((o) => o.modelId === current.modelId)) {
      const id = current.modelId
      options.unshift({
        value: modelValue(provider, id),
        provider,
        modelId: id,
        name: id,
        label: id,
        window: '',
        vision: false
      })
    }
    const label = ready ? PROVIDER_LABELS[provider] : `${PROVIDER_LABELS[provider]} — ${missingLabel(provider)}`
    return { provider, label, ready, options }
  }).filter((group) => group.options.length > 0)
  return [...groups.filter((g) => g.ready), ...groups.filter((g) => !g.ready)]
}

/** The option for a value, from the groups. */
export function findOption(
  groups: readonly ModelGroup[],
  value: { provider: ProviderId; modelId: string } | null
): ModelOption | undefined {
  if (!value) return undefined
  return groups.find((g) => g.provider === value.provider)?.options.find((o) => o.modelId === value.modelId)
}
