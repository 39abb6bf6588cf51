import { useState } from 'react'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { SettingField } from './setting-field'
import { useDraftPart } from '../../components/settings-draft'
import { isDirty, rebase, toFormValues, toPatch, type FormValues } from './settings-form-values'
import { ALL_FIELDS, SETTINGS_SECTIONS, type FormKey } from './settings-fields'

const KNOWN_KEYS = new Set<string>(ALL_FIELDS.map((f) => f.key))

/** Appearance, Compression, Replies, Recall, Notifications: part of the page's one draft. */
export function SettingsForm({ settings }: { settings: Settings }) {
  const [values, setValues] = useState<FormValues>(() => toFormValues(settings))
  const [base, setBase] = useState(settings)
  const [errors, setErrors] = useState<Partial<Record<FormKey, string>>>({})

  // Settings changed underneath (saved here, or in another window): keep what the user is editing.
  if (settings !== base) {
    setBase(settings)
    setValues(rebase(values, base, settings))
  }

  function change(key: FormKey, value: string | boolean) {
    setValues((current) => ({ ...current, [key]: value }))
    if (errors[key]) setErrors(({ [key]: _fixed, ...rest }) => rest)
  }

  const { saving } = useDraftPart('preferences', isDirty(values, settings), {
    label: changedSections(values, settings).join(', '),
    prepare() {
      const { patch, errors: localErrors } = toPatch(values, settings)
      setErrors(localErrors)
      return Object.keys(localErrors).length > 0 ? null : { patch }
    },
    claim(error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors() : {}
      const known = Object.fromEntries(Object.entries(fieldErrors).filter(([key]) => KNOWN_KEYS.has(key)))
      setErrors(known)
      return Object.keys(known).length > 0
    },
    discard() {
      setValues(toFormValues(settings))
      setErrors({})
    }
  })

  return (
    <div className="settings-form">
      {SETTINGS_SECTIONS.map((section) => (
        <section key={section.id} className="settings-section" aria-labelledby={`section-${section.id}`}>
          <h2 id={`section-${section.id}`} className="settings-section-title" tabIndex={-1}>
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
    </div>
  )
}

/** The titles of the sections with an edited field, for the save bar. */
function changedSections(values: FormValues, settings: Settings): string[] {
  const saved = toFormValues(settings)
  return SETTINGS_SECTIONS.filter((section) => section.fields.some((f) => values[f.key] !== saved[f.key])).map(
    (s) => s.title
  )
}
