import { useEffect, useState, type Ref } from 'react'
import type { ProviderStatus } from '../../../../shared/domain/provider'
import { useProvidersStore } from '../../stores/providers-store'
import { useUiStore } from '../../stores/ui-store'
import { ProviderCard } from './provider-card'

/** Settings → Providers: a card per provider with its key and address. */
export function ProvidersSection({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const providers = useProvidersStore((s) => s.providers)
  const status = useProvidersStore((s) => s.status)
  const error = useProvidersStore((s) => s.error)
  const load = useProvidersStore((s) => s.load)
  const warnings = useProvidersStore((s) => s.modelWarnings)
  // The providers in use first; the ones without a key or address wait folded below. Which list a
  // provider is in is decided when the page opens, so saving a key does not move the card away.
  const [setUp] = useState(() => new Set(providers.filter((p) => p.ready).map((p) => p.id)))
  // Sent here to set one up ("Open Settings" on a reply that needs a key): the others are unfolded.
  const [unfold] = useState(() => useUiStore.getState().settingsSection === 'providers')
  const isSetUp = (p: ProviderStatus) => setUp.has(p.id) || (setUp.size === 0 && p.ready)
  const configured = providers.filter(isSetUp)
  const others = providers.filter((p) => !isSetUp(p))

  useEffect(() => {
    void useProvidersStore.getState().load()
  }, [])

  return (
    <section className="settings-section" aria-labelledby="section-providers">
      <h2 id="section-providers" ref={headingRef} tabIndex={-1} className="settings-section-title">
        Providers
      </h2>
      <p className="settings-section-description">
        Keys are stored on this computer, outside the chat database, and are never shown again — only their last four
        characters. A key or address saved here is used instead of one from the environment.
      </p>
      {providers.length > 0 ? (
        <>
          <div className="provider-list">
            {configured.map((provider) => (
              <ProviderCard key={provider.id} status={provider} />
            ))}
          </div>
          {others.length > 0 && (
            // Folded, not hidden: the cards stay in the page's draft while closed.
            <details className="provider-others" open={configured.length === 0 || unfold || undefined}>
              <summary className="provider-others-summary">
                {configured.length === 0 ? 'Set up a provider' : 'Set up another provider'}
                <span className="muted"> — {others.map((p) => p.label).join(', ')}</span>
              </summary>
              <div className="provider-list">
                {others.map((provider) => (
                  <ProviderCard key={provider.id} status={provider} />
                ))}
              </div>
            </details>
          )}
        </>
      ) : status === 'error' ? (
        <div className="settings-card settings-placeholder" role="alert">
          <p>Could not load the providers: {error}</p>
          <button type="button" className="button button-small" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : (
        <p className="muted" aria-busy="true">
          Loading providers…
        </p>
      )}
      {warnings.length > 0 && (
        <ul className="settings-warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
