import { useState } from 'react'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { useProvidersStore } from '../../stores/providers-store'
import { useDraftPart } from '../../components/settings-draft'
import { ModelSelect } from './model-select'

type Model = { provider: ProviderId; modelId: string }

/** The field's choice of no default: new chats follow the chats. */
const LAST_CHOSEN = 'Last model chosen in a chat'

const same = (a: Model | null, b: Model | null) =>
  a === b || (a !== null && b !== null && a.provider === b.provider && a.modelId === b.modelId)

/**
 * "Default model for new chats": part of the page's draft, written with the rest by Save. Until the
 * user names one, new chats start on the model last chosen in a chat, and the field says so rather
 * than showing that model as if it were a saved default.
 */
export function DefaultModelField({ settings }: { settings: Settings }) {
  /** Picked here, not saved yet: a model, or null for "Last model chosen in a chat". */
  const [picked, setPicked] = useState<{ model: Model | null } | null>(null)
  const [error, setError] = useState<string | null>(null)
  // What new chats get now, and why (the server knows whether a default was ever saved).
  const newChat = useProvidersStore((s) => s.newChat)
  const models = useProvidersStore((s) => s.models)
  /** Saved here since the page opened: whether a default is set now (the list may not say yet). */
  const [savedSet, setSavedSet] = useState<boolean | null>(null)
  const isSet = savedSet ?? (newChat ? newChat.source === 'default' : null)
  const saved: Model | null = isSet ? { provider: settings.defaultProvider, modelId: settings.defaultModel } : null
  const value = picked ? picked.model : saved
  const dirty = picked !== null && !same(picked.model, saved)

  const { saving } = useDraftPart('default-model', dirty, {
    label: 'Default model',
    prepare: () => ({
      patch: value
        ? { defaultProvider: value.provider, defaultModel: value.modelId }
        : { defaultProvider: null, defaultModel: null },
      saved: () => {
        setSavedSet(value !== null)
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

  // The model new chats start on without a default: the last chosen in a chat, else the first that can chat.
  const following = settings.lastChatModel ?? (newChat && newChat.source !== 'default' ? newChat : null)
  const followingName = following
    ? (models.find((m) => m.provider === following.provider && m.id === following.modelId)?.label ?? following.modelId)
    : null
  const hint =
    value !== null
      ? 'Each chat can switch models in its header.'
      : followingName
        ? settings.lastChatModel
          ? `New chats start on the model last chosen in a chat’s header: now ${followingName}.`
          : `New chats start on the model last chosen in a chat’s header; none yet, so ${followingName}.`
        : 'New chats start on the model last chosen in a chat’s header.'

  return (
    <div className="setting setting-wide-control" data-invalid={error ? true : undefined}>
      <div className="setting-text">
        <label htmlFor="setting-defaultModel" className="setting-label">
          Default model for new chats
        </label>
        <p id="setting-defaultModel-hint" className="setting-hint">
          {hint}
        </p>
      </div>
      <div className="setting-control">
        <ModelSelect
          id="setting-defaultModel"
          value={value}
          invalid={!!error}
          disabled={saving || isSet === null}
          describedBy={error ? 'setting-defaultModel-error setting-defaultModel-hint' : 'setting-defaultModel-hint'}
          none={
            isSet === null
              ? undefined // "Loading models…" until the server says whether a default is saved
              : {
                  label: LAST_CHOSEN,
                  onSelect: () => {
                    setPicked({ model: null })
                    setError(null)
                  }
                }
          }
          onChange={(provider, modelId) => {
            setPicked({ model: { provider, modelId } })
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
