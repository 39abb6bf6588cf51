import { useId, useState } from 'react'
import { errorMessage } from '../../../api/api-error'

interface ChatNumberFieldProps {
  label: string
  hint: string
  placeholder: string
  /** The chat's own value; null follows Settings or the model. */
  saved: number | null
  /** The typed text as a number (null = empty, follow the default), or what is wrong with it. */
  parse(text: string): { value: number | null } | { error: string }
  write(value: number | null): Promise<unknown>
}

/**
 * A number a chat may set for itself, empty to follow the default. Saved when the field is left or
 * Enter is pressed (Chat settings apply at once); a refused value stays in the field with the reason.
 */
export function ChatNumberField({ label, hint, placeholder, saved, parse, write }: ChatNumberFieldProps) {
  const [text, setText] = useState(saved === null ? '' : String(saved))
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const id = useId()

  async function save() {
    const parsed = parse(text)
    if ('error' in parsed) return setError(parsed.error)
    if (parsed.value === saved) return setError(null)
    setSaving(true)
    try {
      await write(parsed.value)
      setError(null)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setSaving(false)
    }
  }

  return (
    <div className="dialog-field">
      <label htmlFor={id} className="dialog-label">
        {label}
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
        value={text}
        onChange={(event) => setText(event.target.value)}
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
        {hint}
      </p>
    </div>
  )
}
