import { useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { errorMessage } from '../../api/api-error'
import { PROVIDER_LABELS } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { useSettingsStore } from '../../stores/settings-store'
import { ModelSelect } from './model-select'
import './model-thresholds-editor.css'

/** A model's own compression threshold, instead of the global one (FR-1.2.3). */
export function ModelThresholdsEditor({ settings }: { settings: Settings }) {
  const save = useSettingsStore((s) => s.save)
  const models = useProvidersStore((s) => s.models)
  const [model, setModel] = useState<{ provider: ProviderId; modelId: string }>({ provider: settings.defaultProvider, modelId: settings.defaultModel })
  const [percent, setPercent] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const entries = Object.entries(settings.modelThresholds).sort(([a], [b]) => a.localeCompare(b))

  const labelOf = (key: string) => {
    const [provider, ...rest] = key.split(':')
    const modelId = rest.join(':')
    const found = models.find((m) => m.provider === provider && m.id === modelId)
    return `${found?.label ?? modelId} (${PROVIDER_LABELS[provider as ProviderId] ?? provider})`
  }

  async function write(next: Record<string, number>, done: string) {
    setSaving(true)
    try {
      await save({ modelThresholds: next })
      toast.success(done)
      return true
    } catch (err) {
      toast.error('Could not save the threshold', { description: errorMessage(err) })
      return false
    } finally {
      setSaving(false)
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault()
    const value = Number(percent)
    if (percent.trim() === '' || !Number.isInteger(value) || value < 50 || value > 99) {
      setError('Use a whole number from 50 to 99')
      return
    }
    setError(null)
    const key = `${model.provider}:${model.modelId}`
    if (await write({ ...settings.modelThresholds, [key]: value }, `Threshold for ${labelOf(key)} saved`)) setPercent('')
  }

  return (
    <form className="model-thresholds" aria-labelledby="model-thresholds-title" noValidate onSubmit={(event) => void add(event)}>
      <div className="setting-text">
        <h3 id="model-thresholds-title" className="setting-label">
          Threshold per model
        </h3>
        <p className="setting-hint">
          Compress a model’s chats at their own share of the usable context, instead of the global compression threshold
          ({settings.thresholdPercent}%).
        </p>
      </div>
      {entries.length > 0 && (
        <ul className="model-thresholds-list">
          {entries.map(([key, value]) => {
            const label = labelOf(key)
            return (
              <li key={key}>
                <span className="model-thresholds-name">{label}</span>
                <span className="model-thresholds-value">{value}%</span>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  aria-label={`Remove the threshold for ${label}`}
                  disabled={saving}
                  onClick={() => {
                    const { [key]: _gone, ...rest } = settings.modelThresholds
                    void write(rest, `${label} uses the global threshold again`)
                  }}
                >
                  Remove
                </button>
              </li>
            )
          })}
        </ul>
      )}
      <div className="model-thresholds-add">
        <ModelSelect ariaLabel="Model for its own threshold" value={model} onChange={(provider, modelId) => setModel({ provider, modelId })} />
        <input
          className="input model-thresholds-input"
          inputMode="numeric"
          aria-label="Its threshold (%)"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'model-thresholds-error' : undefined}
          placeholder="e.g. 80"
          value={percent}
          onChange={(event) => {
            setPercent(event.target.value)
            setError(null)
          }}
        />
        <span aria-hidden="true">%</span>
        <button type="submit" className="button" disabled={saving}>
          Set threshold
        </button>
      </div>
      {error && (
        <p id="model-thresholds-error" className="field-error">
          {error}
        </p>
      )}
    </form>
  )
}
