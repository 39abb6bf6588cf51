import { useState } from 'react'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { PROVIDER_LABELS } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { useDraftPart } from '../../components/settings-draft'
import { ModelSelect } from './model-select'
import './model-thresholds-editor.css'

type Thresholds = Settings['modelThresholds']

const sameThresholds = (a: Thresholds, b: Thresholds) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v)

/** "50" → 50; anything but a whole number from 50 to 99 is refused here, before Save sends anything. */
function parsePercent(text: string): number | null {
  const value = Number(text.trim().replace(/%$/, ''))
  return text.trim() !== '' && Number.isInteger(value) && value >= 50 && value <= 99 ? value : null
}

/**
 * A model's own compression threshold, instead of the global one (FR-1.2.3). Part of the page's
 * draft: "Set threshold" and "Remove" change the list, Save writes it; a percent typed but not yet
 * set is saved too, never dropped.
 */
export function ModelThresholdsEditor({ settings }: { settings: Settings }) {
  const models = useProvidersStore((s) => s.models)
  const [draft, setDraft] = useState<Thresholds>(settings.modelThresholds)
  const [base, setBase] = useState(settings.modelThresholds)
  const [model, setModel] = useState<{ provider: ProviderId; modelId: string }>({
    provider: settings.defaultProvider,
    modelId: settings.defaultModel
  })
  const [percent, setPercent] = useState('')
  const [error, setError] = useState<string | null>(null)

  if (settings.modelThresholds !== base) {
    setBase(settings.modelThresholds)
    if (sameThresholds(draft, base)) setDraft(settings.modelThresholds)
  }

  const key = `${model.provider}:${model.modelId}`
  const entries = Object.entries(draft).sort(([a], [b]) => a.localeCompare(b))
  const labelOf = (entry: string) => {
    const [provider, ...rest] = entry.split(':')
    const modelId = rest.join(':')
    const found = models.find((m) => m.provider === provider && m.id === modelId)
    return `${found?.label ?? modelId} (${PROVIDER_LABELS[provider as ProviderId] ?? provider})`
  }

  function checkTyped(): number | null | 'invalid' {
    if (percent.trim() === '') return null
    const value = parsePercent(percent)
    if (value === null) {
      setError('Use a whole number from 50 to 99')
      return 'invalid'
    }
    return value
  }

  const { saving } = useDraftPart(
    'model-thresholds',
    !sameThresholds(draft, settings.modelThresholds) || percent.trim() !== '',
    {
      label: 'Thresholds per model',
      prepare() {
        const typed = checkTyped()
        if (typed === 'invalid') return null
        const next = typed === null ? draft : { ...draft, [key]: typed }
        return {
          patch: { modelThresholds: next },
          saved: () => {
            setDraft(next)
            setPercent('')
          }
        }
      },
      claim(err) {
        const message = isApiError(err) ? (err.fieldErrors().modelThresholds ?? null) : null
        setError(message)
        return message !== null
      },
      discard() {
        setDraft(settings.modelThresholds)
        setPercent('')
        setError(null)
      }
    }
  )

  function set() {
    const typed = checkTyped()
    if (typed === 'invalid' || typed === null) {
      if (typed === null) setError('Type a percent first')
      return
    }
    setDraft((current) => ({ ...current, [key]: typed }))
    setPercent('')
  }

  return (
    <div className="model-thresholds" role="group" aria-labelledby="model-thresholds-title">
      <div className="setting-text">
        <h3 id="model-thresholds-title" className="setting-label">
          Threshold per model
        </h3>
        <p className="setting-hint">
          Compress a model’s chats at their own share of the usable context, instead of the global compression threshold
          ({settings.thresholdPercent}%). A chat can have its own in its settings.
        </p>
      </div>
      {entries.length > 0 && (
        <ul className="model-thresholds-list">
          {entries.map(([entry, value]) => {
            const label = labelOf(entry)
            const unsaved = settings.modelThresholds[entry] !== value
            return (
              <li key={entry}>
                <span className="model-thresholds-name">{label}</span>
                <span className="model-thresholds-value">
                  {value}%{unsaved && <span className="model-thresholds-unsaved"> · not saved yet</span>}
                </span>
                <button
                  type="button"
                  className="button button-ghost button-small"
                  aria-label={`Remove the threshold for ${label}`}
                  disabled={saving}
                  onClick={() => setDraft(({ [entry]: _gone, ...rest }) => rest)}
                >
                  Remove
                </button>
              </li>
            )
          })}
        </ul>
      )}
      <div className="model-thresholds-add">
        <ModelSelect
          ariaLabel="Model for its own threshold"
          value={model}
          disabled={saving}
          onChange={(provider, modelId) => setModel({ provider, modelId })}
        />
        <input
          className="input model-thresholds-input"
          inputMode="numeric"
          aria-label="Its threshold (%)"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'model-thresholds-error' : undefined}
          placeholder="e.g. 80"
          disabled={saving}
          value={percent}
          onChange={(event) => {
            setPercent(event.target.value)
            setError(null)
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              set()
            }
          }}
        />
        <span aria-hidden="true">%</span>
        <button type="button" className="button" disabled={saving} onClick={set}>
          Set threshold
        </button>
      </div>
      {error && (
        <p id="model-thresholds-error" className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
