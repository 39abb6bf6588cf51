import type { CustomModel, ProviderId } from '../../../../shared/domain/provider'

export type CustomField = 'provider' | 'id' | 'contextWindow' | 'maxOutput' | 'vision'

/** Whether the model takes images: said by the user, or guessed from its name (llava, …-vision, gemma3…). */
export type VisionChoice = 'guess' | 'yes' | 'no'
export type RowErrors = Partial<Record<CustomField, string>>

/** One editable row: numbers as the text in their inputs. `key` only tells React rows apart. */
export interface CustomRow {
  key: string
  provider: ProviderId
  id: string
  contextWindow: string
  maxOutput: string
  vision: VisionChoice
  /** Kept as they are: the editor does not show labels or tokenizers, but must not drop one set elsewhere. */
  label?: string
  tokenizer?: CustomModel['tokenizer']
}

const visionChoice = (vision: boolean | undefined): VisionChoice =>
  vision === undefined ? 'guess' : vision ? 'yes' : 'no'

let nextKey = 0
const newKey = () => `row-${++nextKey}`

export function toRows(models: readonly CustomModel[]): CustomRow[] {
  return models.map((m) => ({
    key: newKey(),
    provider: m.provider,
    id: m.id,
    contextWindow: String(m.contextWindow),
    maxOutput: String(m.maxOutput),
    vision: visionChoice(m.vision),
    ...(m.label !== undefined ? { label: m.label } : {}),
    ...(m.tokenizer !== undefined ? { tokenizer: m.tokenizer } : {})
  }))
}

export function emptyRow(): CustomRow {
  return { key: newKey(), provider: 'openai-compatible', id: '', contextWindow: '', maxOutput: '4096', vision: 'guess' }
}

/** Whether the rows say something else than the saved models. */
export function rowsDiffer(rows: readonly CustomRow[], models: readonly CustomModel[]): boolean {
  if (rows.length !== models.length) return true
  return rows.some((row, i) => {
    const m = models[i]!
    return (
      row.provider !== m.provider ||
      row.id.trim() !== m.id ||
      row.contextWindow.trim() !== String(m.contextWindow) ||
      row.maxOutput.trim() !== String(m.maxOutput) ||
      row.vision !== visionChoice(m.vision)
    )
  })
}

function parseCount(text: string): number | null {
  const trimmed = text.trim().replace(/[,_\s]/g, '')
  if (trimmed === '') return null
  const n = Number(trimmed)
  return Number.isFinite(n) ? n : null
}

/**
 * The rows as the models to save. Only what the server cannot be asked about is checked here
 * (numbers, duplicates, an output larger than the window); ranges and names are the server's to judge.
 */
export function toModels(rows: readonly CustomRow[]): { models: CustomModel[]; errors: Record<string, RowErrors> } {
  const errors: Record<string, RowErrors> = {}
  const models: CustomModel[] = []
  const seen = new Set<string>()
  const fail = (row: CustomRow, field: CustomField, message: string) => {
    errors[row.key] = { ...errors[row.key], [field]: message }
  }
  for (const row of rows) {
    const contextWindow = parseCount(row.contextWindow)
    const maxOutput = parseCount(row.maxOutput)
    if (contextWindow === null) fail(row, 'contextWindow', 'Enter a number')
    if (maxOutput === null) fail(row, 'maxOutput', 'Enter a number')
    if (contextWindow !== null && maxOutput !== null && maxOutput > contextWindow) {
      fail(row, 'maxOutput', 'Cannot exceed the context window')
    }
    const id = row.id.trim()
    const identity = `${row.provider}:${id}`
    if (id !== '' && seen.has(identity)) fail(row, 'id', 'Listed twice for this provider')
    seen.add(identity)
    models.push({
      provider: row.provider,
      id,
      contextWindow: contextWindow ?? 0,
      maxOutput: maxOutput ?? 0,
      ...(row.label !== undefined ? { label: row.label } : {}),
      ...(row.tokenizer !== undefined ? { tokenizer: row.tokenizer } : {}),
      ...(row.vision !== 'guess' ? { vision: row.vision === 'yes' } : {})
    })
  }
  return { models, errors }
}

/** The server's issues (path ['customModels', index, field]) placed on their rows. */
export function serverRowErrors(
  rows: readonly CustomRow[],
  issues: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }>
): Record<string, RowErrors> {
  const errors: Record<string, RowErrors> = {}
  for (const issue of issues) {
    const [top, index, field] = issue.path
    if (top !== 'customModels' || typeof index !== 'number') continue
    const row = rows[index]
    if (!row) continue
    const key: CustomField =
      field === 'provider' || field === 'id' || field === 'contextWindow' || field === 'maxOutput' || field === 'vision'
        ? field
        : 'id'
    if (!errors[row.key]?.[key]) errors[row.key] = { ...errors[row.key], [key]: issue.message }
  }
  return errors
}
