import { useUiStore } from '../stores/ui-store'

/** A quiet notice while the event stream is down (browser mode only; EventSource reconnects on its own). */
export function ConnectionBanner() {
  const connection = useUiStore((s) => s.connection)
  if (connection !== 'lost') return null
  return (
    <div className="connection-banner" role="status">
      <span className="spinner" aria-hidden="true" />
      Connection to Distill lost. Reconnecting…
    </div>
  )
}
