import { useRef, useState } from 'react'
import type { ProviderId } from '../../../../shared/domain/provider'
import type { Settings } from '../../../../shared/domain/settings'
import { isApiError } from '../../api/api-error'
import { PlusIcon, TrashIcon } from '../../components/icons'
import { PROVIDER_LABELS, PROVIDER_ORDER } from '../../lib/providers'
import { useDraftPart } from '../../components/settings-draft'
import {
  emptyRow,
  rowsDiffer,
  serverRowErrors,
  toModels,
  toRows,
  type CustomField,
  type CustomRow,
  type RowErrors,
  type VisionChoice
} from './custom-models-values'
import './custom-models-editor.css'

const COLUMNS: ReadonlyArray<{ field: CustomField; label: string }> = [
  { field: 'provider', label: 'Provider' },
  { field: 'id', label: 'Model ID' },
  { field: 'contextWindow', label: 'Context window' },
  { field: 'maxOutput', label: 'Max output' },
  { field: 'vision', label: 'Images' }
]

/** Models the catalog does not know, with their windows, so budgets and the meter fit them. */
export function CustomModelsEditor({ settings }: { settings: Settings }) {
  const [rows, setRows] = useState<CustomRow[]>(() => toRows(settings.customModels))
  const [base, setBase] = useState(settings.customModels)
  const [errors, setErrors] = useState<Record<string, RowErrors>>({})
  const listRef = useRef<HTMLDivElement>(null)

  // Saved here or elsewhere: take the new list unless the user has unsaved edits.
  if (settings.customModels !== base) {
    setBase(settings.customModels)
    if (!rowsDiffer(rows, base)) setRows(toRows(settings.customModels))
  }

  const { saving } = useDraftPart('custom-models', rowsDiffer(rows, settings.customModels), {
    label: 'Custom models',
    prepare() {
      const { models, errors: local } = toModels(rows)
      setErrors(local)
      return Object.keys(local).length > 0 ? null : { patch: { customModels: models } }
    },
    claim(error) {
      const placed = isApiError(error) ? serverRowErrors(rows, error.issues) : {}
      setErrors(placed)
      return Object.keys(placed).length > 0
    },
    discard() {
      setRows(toRows(settings.customModels))
      setErrors({})
    }
  })

  function edit(key: string, field: CustomField, value: string) {
    setRows((current) =>
      current.map((row) =>
        row.key === key
          ? {
              ...row,
              [field]:
                field === 'provider' ? (value as ProviderId) : field === 'vision' ? (value as VisionChoice) : value
            }
          : row
      )
    )
    if (errors[key]?.[field]) {
      setErrors(({ [key]: rowErrors, ...rest }) => {
        const { [field]: _fixed, ...left } = rowErrors ?? {}
        return Object.keys(left).length > 0 ? { ...rest, [key]: left } : rest
      })
    }
  }

  function add() {
    const row = emptyRow()
    setRows((current) => [...current, row])
    requestAnimationFrame(() => document.getElementById(`custom-${row.key}-id`)?.focus())
  }

  function remove(index: number) {
    const row = rows[index]
    if (!row) return
    setRows((current) => current.filter((r) => r.key !== row.key))
    setErrors(({ [row.key]: _gone, ...rest }) => rest)
    // Keep the focus in the list: on the next row's remove button, else on "Add model".
    requestAnimationFrame(() => {
      const buttons = listRef.current?.querySelectorAll<HTMLElement>('.custom-model-remove')
      const next =
        buttons?.[Math.min(index, (buttons?.length ?? 1) - 1)] ?? document.getElementById('custom-models-add')
      next?.focus()
    })
  }

  return (
    <div className="custom-models" role="group" aria-labelledby="custom-models-title">
      <div className="setting-text">
        <h3 id="custom-models-title" className="setting-label">
          Custom models
        </h3>
        <p id="custom-models-hint" className="setting-hint">
          For local servers such as Ollama or LM Studio, or any model the list above lacks: give each its context window
          and the most it may write, so the meter and compression fit it. Say whether it takes images, or let Distill
          guess from its name (llava, …-vision, gemma3); images go only to models that take them.
        </p>
      </div>
      {rows.length > 0 ? (
        <div ref={listRef} className="custom-model-list">
          <div className="custom-model-row custom-model-columns" aria-hidden="true">
            {COLUMNS.map((column) => (
              <span key={column.field}>{column.label}</span>
            ))}
            <span />
          </div>
          {rows.map((row, index) => (
            <CustomModelRow
              key={row.key}
              row={row}
              index={index}
              errors={errors[row.key] ?? {}}
              disabled={saving}
              onEdit={(field, value) => edit(row.key, field, value)}
              onRemove={() => remove(index)}
            />
          ))}
        </div>
      ) : (
        <p className="custom-models-empty">No custom models yet.</p>
      )}
      <div className="custom-models-actions">
        <button id="custom-models-add" type="button" className="button button-small" onClick={add} disabled={saving}>
          <PlusIcon width={14} height={14} />
          Add model
        </button>
      </div>
    </div>
  )
}

interface CustomModelRowProps {
  row: CustomRow
  index: number
  errors: RowErrors
  disabled: boolean
  onEdit(field: CustomField, value: string): void
  onRemove(): void
}

function CustomModelRow({ row, index, errors, disabled, onEdit, onRemove }: CustomModelRowProps) {
  const name = `Custom model ${index + 1}`
  const idOf = (field: CustomField) => `custom-${row.key}-${field}`
  const common = (field: CustomField) => ({
    id: idOf(field),
    disabled,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${idOf(field)}-error` : undefined
  })
  return (
    <div className="custom-model-row" role="group" aria-label={name}>
      <div className="custom-model-cell">
        <select
          {...common('provider')}
          className="input select"
          aria-label="Provider"
          value={row.provider}
          onChange={(event) => onEdit('provider', event.target.value)}
        >
          {PROVIDER_ORDER.map((provider) => (
            <option key={provider} value={provider}>
              {PROVIDER_LABELS[provider]}
            </option>
          ))}
        </select>
        <CellError id={`${idOf('provider')}-error`} message={errors.provider} />
      </div>
      <div className="custom-model-cell">
        <input
          {...common('id')}
          className="input"
          aria-label="Model ID"
          placeholder="llama3.2:latest"
          autoComplete="off"
          spellCheck={false}
          value={row.id}
          onChange={(event) => onEdit('id', event.target.value)}
        />
        <CellError id={`${idOf('id')}-error`} message={errors.id} />
      </div>
      <div className="custom-model-cell">
        <input
          {...common('contextWindow')}
          className="input input-number"
          aria-label="Context window"
          inputMode="numeric"
          placeholder="32768"
          autoComplete="off"
          value={row.contextWindow}
          onChange={(event) => onEdit('contextWindow', event.target.value)}
        />
        <CellError id={`${idOf('contextWindow')}-error`} message={errors.contextWindow} />
      </div>
      <div className="custom-model-cell">
        <input
          {...common('maxOutput')}
          className="input input-number"
          aria-label="Max output"
          inputMode="numeric"
          placeholder="4096"
          autoComplete="off"
          value={row.maxOutput}
          onChange={(event) => onEdit('maxOutput', event.target.value)}
        />
        <CellError id={`${idOf('maxOutput')}-error`} message={errors.maxOutput} />
      </div>
      <div className="custom-model-cell">
        <select
          {...common('vision')}
          className="input select"
          aria-label="Takes images"
          value={row.vision}
          onChange={(event) => onEdit('vision', event.target.value)}
        >
          <option value="guess">By name</option>
          <option value="yes">Yes</option>
          <option value="no">No</option>
        </select>
        <CellError id={`${idOf('vision')}-error`} message={errors.vision} />
      </div>
      <button
        type="button"
        className="icon-button custom-model-remove"
        aria-label={`Remove ${row.id.trim() || name.toLowerCase()}`}
        title="Remove"
        disabled={disabled}
        onClick={onRemove}
      >
        <TrashIcon />
      </button>
    </div>
  )
}

function CellError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  )
}
