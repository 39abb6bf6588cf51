import type { ProviderStatus } from '../../../../shared/domain/provider'

/** "Key set ••••1234 (from Settings)", "Key set ••••0001 (from environment)" or "No key". Never more of the key. */
export function keyStatusText(status: Pick<ProviderStatus, 'keySet' | 'keyHint' | 'keySource'>): string {
  if (!status.keySet) return 'No key'
  const hint = status.keyHint ? ` ••••${status.keyHint}` : ''
  const source =
    status.keySource === 'environment'
      ? ' (from environment)'
      : status.keySource === 'settings'
        ? ' (from Settings)'
        : ''
  return `Key set${hint}${source}`
}

/** The short readiness badge: "Ready" only once a connection check succeeded. */
export function readinessText(status: Pick<ProviderStatus, 'id' | 'ready' | 'check'>): string {
  if (!status.ready) return status.id === 'openai-compatible' ? 'Needs address' : 'Needs key'
  switch (status.check.state) {
    case 'ok':
      return 'Ready'
    case 'checking':
      return 'Checking…'
    case 'failed':
      return 'Not working'
    default:
      return 'Not tested'
  }
}

/** The line under a provider after a check: how fast and how many models, or what went wrong. */
export function checkResultText(check: ProviderStatus['check']): string | null {
  if (check.state === 'ok') {
    const models =
      check.models === null
        ? ''
        : ` · ${check.models.toLocaleString('en-US')} model${check.models === 1 ? '' : 's'} listed`
    return `Connected in ${Math.round(check.latencyMs ?? 0).toLocaleString('en-US')} ms${models}`
  }
  if (check.state === 'failed') return check.message
  return null
}
