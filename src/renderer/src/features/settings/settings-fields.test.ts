import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, settingsFieldsSchema } from '../../../../shared/domain/settings'
import { ALL_FIELDS, defaultHint } from './settings-fields'

describe('settings fields', () => {
  it('lists each of its settings once, and only real ones', () => {
    const keys = ALL_FIELDS.map((f) => f.key)
    expect(new Set(keys).size).toBe(keys.length)
    for (const key of keys) expect(Object.keys(settingsFieldsSchema.shape)).toContain(key)
  })

  it('shows the real defaults', () => {
    for (const field of ALL_FIELDS) expect(field.defaultValue, field.key).toEqual(DEFAULT_SETTINGS[field.key])
  })

  it('words the defaults for people', () => {
    const hints = Object.fromEntries(ALL_FIELDS.map((f) => [f.key, defaultHint(f)]))
    expect(hints.theme).toBe('Default: System')
    expect(hints.thresholdPercent).toBe('Default: 95%')
    expect(hints.retentionTokens).toBe('Default: 1,000 tokens')
    expect(hints.autoCompress).toBe('Default: on')
    expect(hints.summarizer).toBe('Default: LLM')
  })

  it('offers every option the schema allows', () => {
    for (const field of ALL_FIELDS) {
      if (field.kind !== 'select') continue
      const schema = settingsFieldsSchema.shape[field.key]
      expect(field.options.map((o) => o.value).sort(), field.key).toEqual([...schema.options].sort())
    }
  })
})
