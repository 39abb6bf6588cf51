import type { ProviderStatus } from '../../../../shared/domain/provider'

/** "Key set ••••1234 (from Settings)", "Key set ••••0001 (from environment)" or "No key". Never more of the key. */
export function keyStatusText(status: Pick<ProviderStatus, 'keySet' | 'keyHint' | 'keySource'>): string {
  if (!status.keySet) return 'No key'
  const hint = status.keyHint ? ` ••••${status.keyHint}` : ''
  const source = status.keySource === 'environment' ? ' (from environment)' : status.keySource === 'settings' ? ' (from Settings)' : ''
  return `Key set${hint}${source}`
}

/** The short readiness badge. */
export function readinessText(status: Pick<ProviderStatus, 'id' | 'ready'>): string {
  if (status.ready) return 'Ready'
  return status.id === 'openai-compatible' ? 'Needs address' : 'Needs key'
}
