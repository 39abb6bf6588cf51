import { useState } from 'react'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { useProvidersStore } from '../../stores/providers-store'
import { useDraftPart } from '../../components/settings-draft'
import { ModelSelect } from './model-select'

/** "Default model for new chats": part of the page's draft, written with the rest by Save. */
export function DefaultModelField({ settings }: { settings: Settings }) {
  const [picked, setPicked] = useState<{ provider: ProviderId; modelId: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  // What new chats really get: the default chosen, or until one is, the first provider that can chat.
  const newChat = useProvidersStore((s) => s.newChat)
  /** Saved here: from now on new chats get the stored default. */
  const [chosen, setChosen] = useState(false)
  const stored = { provider: settings.defaultProvider, modelId: settings.defaultModel }
  const inUse = chosen ? stored : (newChat ?? stored)
  const value = picked ?? inUse
  const dirty = value.provider !== inUse.provider || value.modelId !== inUse.modelId

  const { saving } = useDraftPart('default-model', dirty, {
    label: 'Default model',
    prepare: () => ({
      patch: { defaultProvider: value.provider, defaultModel: value.modelId },
      saved: () => {
        setChosen(true)
        setPicked(null)
        void useProvidersStore.getState().loadModels()
      }
    }),
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
