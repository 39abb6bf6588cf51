import { useEffect, useId, useState } from 'react'
import { toast } from 'sonner'
import { create } from 'zustand'
import type { ProviderId, ProviderStatus } from '../../../../shared/domain/provider'
import { errorMessage, isApiError } from '../../api/api-error'
import { DEFAULT_BASE_URLS, PROVIDER_ENV } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { useSettingsStore } from '../../stores/settings-store'
import { useDraftPart } from '../../components/settings-draft'
import { checkResultText, keyStatusText, readinessText } from './provider-status-text'
import './provider-card.css'

type Field = 'apiKey' | 'baseURL'

/** Providers whose requests carry prompt-cache fields Distill can leave out (Anthropic's breakpoints, OpenAI's cache key). */
const PROMPT_CACHING: ReadonlySet<ProviderId> = new Set(['openai', 'anthropic'])

/**
 * Unsaved "Prompt caching" choices of every card. One setting holds them all (`promptCaching`), and
 * the page's parts' patches are merged key by key, so each card writes the others' choices with its own.
 */
const useCachingDraft = create<{ edits: Partial<Record<ProviderId, boolean>> }>()(() => ({ edits: {} }))

function editCaching(provider: ProviderId, value: boolean | undefined) {
  useCachingDraft.setState((s) => {
    const { [provider]: _old, ...edits } = s.edits
    return { edits: value === undefined ? edits : { ...edits, [provider]: value } }
  })
}

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
  const tryConnection = useProvidersStore((s) => s.tryConnection)
  /** A check of what is typed in the fields (not saved yet), shown instead of the saved one's. */
  const [typedCheck, setTypedCheck] = useState<ProviderStatus['check'] | null>(null)
  const [key, setKey] = useState('')
  const [address, setAddress] = useState(() => savedAddress(status))
  const [base, setBase] = useState(status)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [removeKey, setRemoveKey] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const id = useId()
  const env = PROVIDER_ENV[status.id]
  const local = status.id === 'openai-compatible'
  const settings = useSettingsStore((s) => s.settings)
  const cachingEdit = useCachingDraft((s) => s.edits[status.id])
  const savedCaching = settings?.promptCaching[status.id] !== false
  const caching = cachingEdit ?? savedCaching
  const showCaching = PROMPT_CACHING.has(status.id) && settings !== null

  // Saved elsewhere (another window): follow, unless the user is editing the field.
  if (status !== base) {
    setBase(status)
    if (address === savedAddress(base)) setAddress(savedAddress(status))
  }

  function testConnection() {
    test(status.id).catch((error: unknown) =>
      toast.error(`Could not test ${status.label}`, { description: errorMessage(error) })
    )
  }

  /** "Test connection" checks what the form holds: a key or address typed but not saved yet, else the saved ones. */
  function testForm() {
    if (newKey === undefined && newAddress === undefined) {
      setTypedCheck(null)
      return testConnection()
    }
    setTypedCheck({ state: 'checking', at: null, latencyMs: null, models: null, message: null })
    tryConnection(status.id, {
      ...(newKey ? { apiKey: newKey } : {}),
      ...(newAddress !== undefined ? { baseURL: newAddress } : {})
    })
      .then((result) => setTypedCheck(result.check))
      .catch((error: unknown) => {
        setTypedCheck(null)
        const fields = isApiError(error) && error.code === 'invalid_input' ? error.fieldErrors() : {}
        if (fields.baseURL) setErrors((current) => ({ ...current, baseURL: fields.baseURL }))
        else toast.error(`Could not test ${status.label}`, { description: errorMessage(error) })
      })
  }

  // A provider on an address of its own (a local server, a proxy) is checked when Settings opens;
  // the hosted ones when asked, so opening Settings never calls them unasked.
  const autoCheck = status.ready && status.baseURL !== null && status.check.state === 'unchecked'
  useEffect(() => {
    if (autoCheck) testConnection()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per unchecked address
  }, [autoCheck, status.baseURL])

  const newAddress = address.trim() !== savedAddress(status) ? address.trim() : undefined
  const newKey = removeKey ? null : key.trim() !== '' ? key.trim() : undefined
  // What the fields hold can be tested: an address (local servers), a key (hosted ones).
  const typedReady = local
    ? newAddress !== undefined
      ? newAddress !== ''
      : status.ready
    : newKey !== undefined
      ? !!newKey
      : status.ready
  const check = typedCheck ?? status.check
  const { saving: busy } = useDraftPart(`provider-${status.id}`, newKey !== undefined || newAddress !== undefined, {
    label: status.label,
    prepare: () => ({
      // Key and address in one request: the server checks both before it writes either.
      write: async () => {
        setErrors({})
        setProblem(null)
        try {
          const next = await update(status.id, {
            ...(newKey !== undefined ? { apiKey: newKey } : {}),
            ...(newAddress !== undefined ? { baseURL: newAddress } : {})
          })
          setKey('') // never kept in the page longer than needed
          setRemoveKey(false)
          setTypedCheck(null)
          setAddress(savedAddress(next))
        } catch (error) {
          const fields = isApiError(error) && error.code === 'invalid_input' ? error.fieldErrors() : {}
          const placed = {
            ...(fields.apiKey ? { apiKey: fields.apiKey } : {}),
            ...(fields.baseURL ? { baseURL: fields.baseURL } : {})
          }
          setErrors(placed)
          if (Object.keys(placed).length === 0) setProblem(errorMessage(error))
          throw error
        }
      }
    }),
    discard() {
      setKey('')
      setRemoveKey(false)
      setTypedCheck(null)
      setAddress(savedAddress(status))
      setErrors({})
      setProblem(null)
    }
  })

  const { saving: cachingBusy } = useDraftPart(`prompt-caching-${status.id}`, caching !== savedCaching, {
    label: `${status.label} prompt caching`,
    prepare: () => ({
      patch: {
        promptCaching: { ...useSettingsStore.getState().settings?.promptCaching, ...useCachingDraft.getState().edits }
      },
      saved: () => editCaching(status.id, undefined)
    }),
    discard: () => editCaching(status.id, undefined)
  })
  // The card leaves the page (Settings closed): its unsaved choice goes with it.
  useEffect(() => () => editCaching(status.id, undefined), [status.id])

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
  const describedBy = (field: Field) =>
    errors[field] ? `${fields[field].error} ${fields[field].hint}` : fields[field].hint

  return (
    <section
      className="provider-card"
      aria-labelledby={`${id}-title`}
      data-ready={status.check.state === 'ok' || undefined}
    >
      <div className="provider-head">
        <h3 id={`${id}-title`} className="provider-name">
          {status.label}
        </h3>
        <span
          className="provider-badge"
          data-ready={status.check.state === 'ok' || undefined}
          data-check={status.check.state}
        >
          <span className="provider-badge-dot" aria-hidden="true" />
          {readinessText(status)}
        </span>
      </div>
      <p className="provider-key-status">
        {removeKey ? `${keyStatusText(status)} — removed when you save` : keyStatusText(status)}
      </p>
      <div className="provider-check">
        <button
          type="button"
          className="button button-small"
          disabled={!typedReady || check.state === 'checking'}
          title={
            typedReady
              ? 'List the models with the key and address in these fields'
              : local
                ? 'Set the address first'
                : 'Add a key first'
          }
          onClick={testForm}
        >
          {check.state === 'checking' ? 'Testing…' : 'Test connection'}
        </button>
        <p className="provider-check-result" role="status" data-state={check.state}>
          {checkResultText(check)}
          {typedCheck && typedCheck.state !== 'checking' ? ' (what is typed, not saved yet)' : ''}
        </p>
      </div>

      <div className="provider-field">
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
              readOnly={busy || removeKey}
              aria-describedby={describedBy('apiKey')}
              aria-invalid={errors.apiKey ? true : undefined}
              onChange={(event) => {
                setKey(event.target.value)
                setTypedCheck(null)
                if (errors.apiKey) setErrors(({ apiKey: _fixed, ...rest }) => rest)
              }}
            />
            <button
              type="button"
              className="button button-ghost"
              disabled={busy || status.keySource !== 'settings'}
              aria-pressed={removeKey}
              title={status.keySource === 'environment' ? `Set in ${env.key}; remove it there.` : undefined}
              onClick={() => {
                setRemoveKey((current) => !current)
                setKey('')
              }}
            >
              {removeKey ? 'Keep key' : 'Remove key'}
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
      </div>

      <div className="provider-field">
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
              placeholder={
                status.baseURLSource === 'environment'
                  ? (status.baseURL ?? DEFAULT_BASE_URLS[status.id])
                  : DEFAULT_BASE_URLS[status.id]
              }
              value={address}
              readOnly={busy}
              aria-describedby={describedBy('baseURL')}
              aria-invalid={errors.baseURL ? true : undefined}
              onChange={(event) => {
                setAddress(event.target.value)
                setTypedCheck(null)
                if (errors.baseURL) setErrors(({ baseURL: _fixed, ...rest }) => rest)
              }}
            />
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
      </div>
      {showCaching && (
        <div className="provider-option">
          <input
            id={`${id}-caching`}
            type="checkbox"
            className="provider-option-box"
            checked={caching}
            disabled={cachingBusy}
            aria-describedby={`${id}-caching-hint`}
            onChange={(event) =>
              editCaching(status.id, event.target.checked === savedCaching ? undefined : event.target.checked)
            }
          />
          <label htmlFor={`${id}-caching`} className="provider-field-label">
            Prompt caching
          </label>
          <p id={`${id}-caching-hint`} className="setting-hint">
            Marks the repeated start of each request so the provider bills it at its cached price. Turn off for a proxy
            that refuses unknown fields.
          </p>
        </div>
      )}
      {problem && (
        <p className="field-error provider-problem" role="alert">
          Not saved: {problem}
        </p>
      )}
    </section>
  )
}
