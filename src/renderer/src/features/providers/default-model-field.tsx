import { useState } from 'react'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { useDraftPart } from '../settings/settings-draft'
import { ModelSelect } from './model-select'

/** "Default model for new chats": part of the page's draft, written with the rest by Save. */
export function DefaultModelField({ settings }: { settings: Settings }) {
  const [picked, setPicked] = useState<{ provider: ProviderId; modelId: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const value = picked ?? { provider: settings.defaultProvider, modelId: settings.defaultModel }
  const dirty = value.provider !== settings.defaultProvider || value.modelId !== settings.defaultModel

  const { saving } = useDraftPart('default-model', dirty, {
    label: 'Default model',
    prepare: () => ({ patch: { defaultProvider: value.provider, defaultModel: value.modelId } }),
    claim(err) {
      const fields = isApiError(err) ? err.fieldErrors() : {}
      const message = fields.defaultModel ?? fields.defaultProvider ?? null
      setError(message)
      return message !== null
    },
    discard() {
      setPicked(null)
      setError(null)
    }
  })

  return (
    <div className="setting setting-wide-control" data-invalid={error ? true : undefined}>
      <div className="setting-text">
        <label htmlFor="setting-defaultModel" className="setting-label">
          Default model for new chats
        </label>
        <p id="setting-defaultModel-hint" className="setting-hint">
          Each chat can switch models in its header.
        </p>
      </div>
      <div className="setting-control">
        <ModelSelect
          id="setting-defaultModel"
          value={value}
          invalid={!!error}
          disabled={saving}
          describedBy={error ? 'setting-defaultModel-error setting-defaultModel-hint' : 'setting-defaultModel-hint'}
          onChange={(provider, modelId) => {
            setPicked({ provider, modelId })
            setError(null)
          }}
        />
        {error && (
          <p id="setting-defaultModel-error" className="field-error">
            {error}
          </p>
        )}
      </div>
    </div>
  )
}
