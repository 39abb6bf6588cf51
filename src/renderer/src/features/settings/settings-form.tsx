import { useRef, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import type { Settings } from '../../../../shared/domain/settings'
import { errorMessage, isApiError } from '../../api/api-error'
import { useSettingsStore } from '../../stores/settings-store'
import { SettingField } from './setting-field'
import { isDirty, rebase, toFormValues, toPatch, type FormValues } from './settings-form-values'
import { ALL_FIELDS, SETTINGS_SECTIONS, type FormKey } from './settings-fields'

const KNOWN_KEYS = new Set<string>(ALL_FIELDS.map((f) => f.key))

export function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSettingsStore((s) => s.save)
  const [values, setValues] = useState<FormValues>(() => toFormValues(settings))
  const [base, setBase] = useState(settings)
  const [errors, setErrors] = useState<Partial<Record<FormKey, string>>>({})
  const [saving, setSaving] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)

  // Settings changed underneath (saved here, or in another window): keep what the user is editing.
  if (settings !== base) {
    setBase(settings)
    setValues(rebase(values, base, settings))
  }

  function change(key: FormKey, value: string | boolean) {
    setValues((current) => ({ ...current, [key]: value }))
    if (errors[key]) setErrors(({ [key]: _fixed, ...rest }) => rest)
  }

  function focusFirstInvalid() {
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const { patch, errors: localErrors } = toPatch(values, settings)
    if (Object.keys(localErrors).length > 0) {
      setErrors(localErrors)
      focusFirstInvalid()
      return
    }
    setSaving(true)
    try {
      await save(patch)
      setErrors({})
      toast.success('Settings saved')
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors() : {}
      const known = Object.fromEntries(Object.entries(fieldErrors).filter(([key]) => KNOWN_KEYS.has(key)))
      if (Object.keys(known).length > 0) {
        setErrors(known)
        focusFirstInvalid()
        toast.error('Some settings were not saved', { description: 'Check the highlighted fields.' })
      } else {
        toast.error('Could not save settings', { description: errorMessage(error) })
      }
    } finally {
      setSaving(false)
    }
  }

  const dirty = isDirty(values, settings)

  return (
    <form ref={formRef} className="settings-form" noValidate onSubmit={(event) => void submit(event)}>
      {SETTINGS_SECTIONS.map((section) => (
        <section key={section.id} className="settings-section" aria-labelledby={`section-${section.id}`}>
          <h2 id={`section-${section.id}`} className="settings-section-title">
            {section.title}
          </h2>
          {section.description && <p className="settings-section-description">{section.description}</p>}
          <div className="settings-card">
            {section.fields.map((field) => (
              <SettingField
                key={field.key}
                field={field}
                value={values[field.key]}
                error={errors[field.key]}
                disabled={saving}
                onChange={(value) => change(field.key, value)}
              />
            ))}
          </div>
        </section>
      ))}
      <div className="settings-footer">
        <span className="settings-status" role="status">
          {dirty ? 'Unsaved changes' : ''}
        </span>
        <button type="submit" className="button button-primary" disabled={saving}>
          Save settings
        </button>
      </div>
    </form>
  )
}
