import type { Settings, SettingsPatch } from '../../../../shared/domain/settings'
import { ALL_FIELDS, type FormKey } from './settings-fields'

/** What the form edits: booleans as booleans, everything else as the text in its control. */
export type FormValues = { [K in FormKey]: Settings[K] extends boolean ? boolean : string }

export function toFormValues(settings: Settings): FormValues {
  return {
    theme: settings.theme,
    autoCompress: settings.autoCompress,
    thresholdPercent: String(settings.thresholdPercent),
    retentionTokens: String(settings.retentionTokens),
    safetyMarginPercent: String(settings.safetyMarginPercent),
    minimumTokens: String(settings.minimumTokens),
    strategy: settings.strategy,
    summarizer: settings.summarizer,
    prepareAtPercent: String(settings.prepareAtPercent),
    prepareWhenIdle: settings.prepareWhenIdle,
    reviewSummaries: settings.reviewSummaries,
    summarizationModel: settings.summarizationModel ?? '',
    notifications: settings.notifications,
    firstChunkTimeoutSeconds: String(settings.firstChunkTimeoutSeconds),
    recallEnabled: settings.recallEnabled,
    recallBudgetPercent: String(settings.recallBudgetPercent),
    pinShareLimit: String(settings.pinShareLimit)
  }
}

/** Keeps the fields the user has edited and takes the rest from newer settings. */
export function rebase(values: FormValues, from: Settings, to: Settings): FormValues {
  const before = toFormValues(from)
  const after = toFormValues(to)
  const merged: Record<string, unknown> = { ...values }
  for (const key of Object.keys(after) as FormKey[]) {
    if (values[key] === before[key]) merged[key] = after[key]
  }
  return merged as FormValues
}

export function isDirty(values: FormValues, settings: Settings): boolean {
  const saved = toFormValues(settings)
  return (Object.keys(saved) as FormKey[]).some((key) => saved[key] !== values[key])
}

/**
 * The changed fields as a patch. Only what the server cannot be asked about is checked here (an
 * empty or non-numeric number field); ranges and whole numbers are the server's to judge.
 */
export function toPatch(
  values: FormValues,
  settings: Settings
): { patch: SettingsPatch; errors: Partial<Record<FormKey, string>> } {
  const saved = toFormValues(settings)
  const patch: Record<string, unknown> = {}
  const errors: Partial<Record<FormKey, string>> = {}
  for (const field of ALL_FIELDS) {
    const key = field.key
    const value = values[key]
    if (value === saved[key]) continue
    switch (field.kind) {
      case 'number': {
        const text = String(value).trim()
        const number = Number(text)
        if (text === '' || !Number.isFinite(number)) errors[key] = 'Enter a number'
        else patch[key] = number
        break
      }
      case 'text': {
        const text = String(value).trim()
        patch[key] = text === '' ? null : text
        break
      }
      default:
        patch[key] = value
    }
  }
  return { patch: patch as SettingsPatch, errors }
}
