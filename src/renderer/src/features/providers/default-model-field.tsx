import { useState } from 'react'
import { toast } from 'sonner'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { errorMessage, isApiError } from '../../api/api-error'
import { useSettingsStore } from '../../stores/settings-store'
import { ModelSelect } from './model-select'

/** "Default model for new chats": saved as soon as it is picked. */
export function DefaultModelField({ settings }: { settings: Settings }) {
  const save = useSettingsStore((s) => s.save)
  const [pending, setPending] = useState<{ provider: ProviderId; modelId: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const value = pending ?? { provider: settings.defaultProvider, modelId: settings.defaultModel }

  async function change(provider: ProviderId, modelId: string) {
    setPending({ provider, modelId })
    setError(null)
    try {
      await save({ defaultProvider: provider, defaultModel: modelId })
      toast.success('Default model saved', { description: 'New chats start with it.' })
    } catch (err) {
      const fields = isApiError(err) ? err.fieldErrors() : {}
      setError(fields.defaultModel ?? fields.defaultProvider ?? errorMessage(err))
    } finally {
      setPending(null)
    }
  }

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
          describedBy={error ? 'setting-defaultModel-error setting-defaultModel-hint' : 'setting-defaultModel-hint'}
          onChange={(provider, modelId) => void change(provider, modelId)}
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
