import type { FormValues } from './settings-form-values'
import { defaultHint, type FieldSpec } from './settings-fields'

interface SettingFieldProps {
  field: FieldSpec
  value: FormValues[FieldSpec['key']]
  error: string | undefined
  disabled: boolean
  onChange(value: string | boolean): void
}

/** One setting: its label, control, what it does with its default, and the server's complaint if any. */
export function SettingField({ field, value, error, disabled, onChange }: SettingFieldProps) {
  const id = `setting-${field.key}`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = error ? `${errorId} ${hintId}` : hintId
  const common = {
    id,
    name: field.key,
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined
  } as const

  let control
  switch (field.kind) {
    case 'toggle':
      control = (
        <input
          {...common}
          type="checkbox"
          role="switch"
          className="switch"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      )
      break
    case 'select':
      control = (
        <select {...common} className="input select" value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )
      break
    case 'number':
      control = (
        <span className="input-with-unit">
          <input
            {...common}
            type="number"
            className="input input-number"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            min={field.min}
            max={field.max}
            step={field.step}
            value={String(value)}
            onChange={(event) => onChange(event.target.value)}
          />
          <span className="input-unit" aria-hidden="true">
            {field.unit}
          </span>
        </span>
      )
      break
    case 'text':
      control = (
        <input
          {...common}
          type="text"
          className="input"
          placeholder={field.placeholder}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          value={String(value)}
          onChange={(event) => onChange(event.target.value)}
        />
      )
      break
  }

  return (
    <div className="setting" data-kind={field.kind} data-invalid={error ? true : undefined}>
      <div className="setting-text">
        <label htmlFor={id} className="setting-label">
          {field.label}
        </label>
        <p id={hintId} className="setting-hint">
          {field.help && <>{field.help} </>}
          <span className="setting-default">{defaultHint(field)}</span>
        </p>
      </div>
      <div className="setting-control">
        {control}
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
      </div>
    </div>
  )
}
