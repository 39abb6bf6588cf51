import type { ProviderId } from '../../../../shared/domain/provider'
import { modelValue, parseModelValue } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { groupModels } from './model-options'

interface ModelSelectProps {
  value: { provider: ProviderId; modelId: string } | null
  onChange(provider: ProviderId, modelId: string): void
  id?: string
  /** The accessible name when no <label> points at the select. */
  ariaLabel?: string
  className?: string
  disabled?: boolean
  title?: string
  describedBy?: string
  invalid?: boolean
}

/** Every model, grouped by provider, with its context window; providers without a key are marked. */
export function ModelSelect({ value, onChange, id, ariaLabel, className, disabled, title, describedBy, invalid }: ModelSelectProps) {
  const models = useProvidersStore((s) => s.models)
  const providers = useProvidersStore((s) => s.providers)
  const groups = groupModels(models, providers, value)
  return (
    <select
      id={id}
      className={className ? `input select ${className}` : 'input select'}
      aria-label={ariaLabel}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      title={title}
      disabled={disabled || value === null}
      value={value ? modelValue(value.provider, value.modelId) : ''}
      onChange={(event) => {
        const picked = parseModelValue(event.target.value)
        if (picked) onChange(picked.provider, picked.modelId)
      }}
    >
      {value === null && <option value="">Loading models…</option>}
      {groups.map((group) => (
        <optgroup key={group.provider} label={group.label}>
          {group.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  )
}
