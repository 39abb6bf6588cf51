import { useEffect, useId, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import type { ProviderStatus } from '../../../../shared/domain/provider'
import { errorMessage, isApiError } from '../../api/api-error'
import { DEFAULT_BASE_URLS, PROVIDER_ENV } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { checkResultText, keyStatusText, readinessText } from './provider-status-text'
import './provider-card.css'

type Field = 'apiKey' | 'baseURL'

/** The address saved in Settings, which the field edits (one from the environment is only shown). */
function savedAddress(status: ProviderStatus): string {
  return status.baseURLSource === 'settings' ? (status.baseURL ?? '') : ''
}

/**
 * One provider: whether it can chat, its key (write-only: only the last four characters ever come
 * back) and its address.
 */
export function ProviderCard({ status }: { status: ProviderStatus }) {
  const update = useProvidersStore((s) => s.update)
  const test = useProvidersStore((s) => s.test)
  const [key, setKey] = useState('')
  const [address, setAddress] = useState(() => savedAddress(status))
  const [base, setBase] = useState(status)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState<'key' | 'remove' | 'address' | null>(null)
  const id = useId()
  const env = PROVIDER_ENV[status.id]
  const local = status.id === 'openai-compatible'

  // Saved elsewhere (another window): follow, unless the user is editing the field.
  if (status !== base) {
    setBase(status)
    if (address === savedAddress(base)) setAddress(savedAddress(status))
  }

  function testConnection() {
    test(status.id).catch((error: unknown) => toast.error(`Could not test ${status.label}`, { description: errorMessage(error) }))
  }

  // A provider on an address of its own (a local server, a proxy) is checked when Settings opens;
  // the hosted ones when asked, so opening Settings never calls them unasked.
  const autoCheck = status.ready && status.baseURL !== null && status.check.state === 'unchecked'
  useEffect(() => {
    if (autoCheck) testConnection()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per unchecked address
  }, [autoCheck, status.baseURL])

  function fieldError(error: unknown, field: Field): string | null {
    if (!isApiError(error) || error.code !== 'invalid_input') return null
    return error.fieldErrors()[field] ?? null
  }

  async function run(action: 'key' | 'remove' | 'address', field: Field, change: () => Promise<string>) {
    setBusy(action)
    setErrors(({ [field]: _old, ...rest }) => rest)
    try {
      toast.success(await change())
    } catch (error) {
      const message = fieldError(error, field)
      if (message) {
        setErrors((current) => ({ ...current, [field]: message }))
        requestAnimationFrame(() => document.getElementById(`${id}-${field}`)?.focus())
      } else {
        toast.error(`Could not update ${status.label}`, { description: errorMessage(error) })
      }
    } finally {
      setBusy(null)
    }
  }

  function saveKey(event: FormEvent) {
    event.preventDefault()
    if (key.trim() === '') {
      setErrors((current) => ({ ...current, apiKey: 'Paste a key first' }))
      document.getElementById(`${id}-apiKey`)?.focus()
      return
    }
    void run('key', 'apiKey', async () => {
      await update(status.id, { apiKey: key.trim() })
      setKey('') // never kept in the page longer than needed
      return `${status.label} key saved`
    })
  }

  function removeKey() {
    void run('remove', 'apiKey', async () => {
      await update(status.id, { apiKey: null })
      return `${status.label} key removed`
    })
  }

  function saveAddress(event: FormEvent) {
    event.preventDefault()
    const value = address.trim()
    void run('address', 'baseURL', async () => {
      const next = await update(status.id, { baseURL: value })
      setAddress(savedAddress(next))
      return value === '' ? `${status.label} address reset` : `${status.label} address saved`
    })
  }

  const keyHint =
    status.keySource === 'environment'
      ? `From ${env.key}. A key saved here is used instead.`
      : status.keySource === 'settings'
        ? 'Stored on this computer. Distill never shows it again.'
        : local
          ? 'Most local servers need no key.'
          : 'Stored on this computer. Distill never shows it again.'
  const addressHint =
    status.baseURLSource === 'environment'
      ? `From ${env.baseURL}. An address saved here is used instead.`
      : status.baseURLSource === 'settings'
        ? 'Clear the field and save to go back to the default.'
        : local
          ? 'Where your Ollama, LM Studio or other OpenAI-compatible server listens.'
          : 'Leave empty for the default.'
  const fields = {
    apiKey: { input: `${id}-apiKey`, hint: `${id}-apiKey-hint`, error: `${id}-apiKey-error` },
    baseURL: { input: `${id}-baseURL`, hint: `${id}-baseURL-hint`, error: `${id}-baseURL-error` }
  }
  const describedBy = (field: Field) => (errors[field] ? `${fields[field].error} ${fields[field].hint}` : fields[field].hint)

  return (
    <section className="provider-card" aria-labelledby={`${id}-title`} data-ready={status.check.state === 'ok' || undefined}>
      <div className="provider-head">
        <h3 id={`${id}-title`} className="provider-name">
          {status.label}
        </h3>
        <span className="provider-badge" data-ready={status.check.state === 'ok' || undefined} data-check={status.check.state}>
          <span className="provider-badge-dot" aria-hidden="true" />
          {readinessText(status)}
        </span>
      </div>
      <p className="provider-key-status">{keyStatusText(status)}</p>
      <div className="provider-check">
        <button
          type="button"
          className="button button-small"
          disabled={!status.ready || status.check.state === 'checking'}
          title={status.ready ? 'List the models with this key and address' : local ? 'Set the address first' : 'Add a key first'}
          onClick={testConnection}
        >
          {status.check.state === 'checking' ? 'Testing…' : 'Test connection'}
        </button>
        <p className="provider-check-result" role="status" data-state={status.check.state}>
          {checkResultText(status.check)}
        </p>
      </div>

      <form className="provider-field" noValidate onSubmit={saveKey}>
        <label htmlFor={fields.apiKey.input} className="provider-field-label">
          <span className="sr-only">{status.label} </span>API key
        </label>
        <div className="provider-field-control">
          <div className="provider-field-row">
            <input
              id={fields.apiKey.input}
              type="password"
              className="input"
              autoComplete="off"
              spellCheck={false}
              placeholder={status.keySet ? 'Paste a new key to replace it' : 'Paste your key'}
              value={key}
              readOnly={busy !== null}
              aria-describedby={describedBy('apiKey')}
              aria-invalid={errors.apiKey ? true : undefined}
              onChange={(event) => {
                setKey(event.target.value)
                if (errors.apiKey) setErrors(({ apiKey: _fixed, ...rest }) => rest)
              }}
            />
            <button type="submit" className="button" disabled={busy !== null}>
              Save key
            </button>
            <button
              type="button"
              className="button button-ghost"
              disabled={busy !== null || status.keySource !== 'settings'}
              title={status.keySource === 'environment' ? `Set in ${env.key}; remove it there.` : undefined}
              onClick={removeKey}
            >
              Remove key
            </button>
          </div>
          {errors.apiKey && (
            <p id={fields.apiKey.error} className="field-error">
              {errors.apiKey}
            </p>
          )}
          <p id={fields.apiKey.hint} className="setting-hint">
            {keyHint}
          </p>
        </div>
      </form>

      <form className="provider-field" noValidate onSubmit={saveAddress}>
        <label htmlFor={fields.baseURL.input} className="provider-field-label">
          Base URL
        </label>
        <div className="provider-field-control">
          <div className="provider-field-row">
            <input
              id={fields.baseURL.input}
              aria-label={`${status.label} base URL`}
              type="url"
              inputMode="url"
              className="input"
              autoComplete="off"
              spellCheck={false}
              placeholder={status.baseURLSource === 'environment' ? (status.baseURL ?? DEFAULT_BASE_URLS[status.id]) : DEFAULT_BASE_URLS[status.id]}
              value={address}
              readOnly={busy !== null}
              aria-describedby={describedBy('baseURL')}
              aria-invalid={errors.baseURL ? true : undefined}
              onChange={(event) => {
                setAddress(event.target.value)
                if (errors.baseURL) setErrors(({ baseURL: _fixed, ...rest }) => rest)
              }}
            />
            <button type="submit" className="button" disabled={busy !== null}>
              Save address
            </button>
          </div>
          {errors.baseURL && (
            <p id={fields.baseURL.error} className="field-error">
              {errors.baseURL}
            </p>
          )}
          <p id={fields.baseURL.hint} className="setting-hint">
            {addressHint}
          </p>
        </div>
      </form>
    </section>
  )
}
