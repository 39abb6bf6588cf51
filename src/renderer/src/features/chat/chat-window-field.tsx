import { useId, useState } from 'react'
import type { Session } from '../../../../shared/domain/session'
import { errorMessage } from '../../api/api-error'
import { useSessionsStore } from '../../stores/sessions-store'
import { useUsageStore } from '../../stores/usage-store'

/**
 * "Context window for this chat": a local server loaded with a smaller window than the model's, or a
 * chat kept small on purpose. Empty follows the model. Saved when the field is left or Enter is pressed;
 * keyed by the stored value where it is used, so a change made elsewhere shows.
 */
export function ChatWindowField({ session }: { session: Session }) {
  const update = useSessionsStore((s) => s.update)
  const modelWindow = useUsageStore((s) => s.usage[session.id]?.budget.window)
  const [value, setValue] = useState(session.contextWindow === null ? '' : String(session.contextWindow))
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const id = useId()

  async function save() {
    const text = value.replace(/[\s,._]/g, '')
    if (text === '' && session.contextWindow === null) return setError(null)
    if (text !== '' && !/^\d+$/.test(text)) return setError('A whole number of tokens, e.g. 8192')
    const contextWindow = text === '' ? null : Number(text)
    if (contextWindow === session.contextWindow) return setError(null)
    setSaving(true)
    try {
      await update(session.id, { contextWindow })
      setError(null)
      useUsageStore.getState().refresh(session.id, { now: true })
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setSaving(false)
    }
  }

  const placeholder = session.contextWindow === null && modelWindow ? `${modelWindow.toLocaleString()} (the model’s)` : 'The model’s'
  return (
    <div className="dialog-field">
      <label htmlFor={id} className="dialog-label">
        Context window for this chat
      </label>
      <input
        id={id}
        className="input"
        inputMode="numeric"
        autoComplete="off"
        placeholder={placeholder}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        disabled={saving}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onBlur={() => void save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            void save()
          }
        }}
      />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="dialog-field-hint">
        Tokens. Set it when your local server loaded the model with a smaller window; empty follows the model.
      </p>
    </div>
  )
}
