import type { ProviderId } from '../../../shared/domain/provider'

/**
 * The providers in the order menus list them. Mirrors providerIdSchema and PROVIDER_LABELS in
 * shared/domain/provider.ts (kept out of the bundle because that module pulls zod);
 * providers.test.ts checks they agree.
 */
export const PROVIDER_ORDER: readonly ProviderId[] = ['openai', 'anthropic', 'google', 'openai-compatible']

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  'openai-compatible': 'Local / OpenAI-compatible'
}

/** Where each provider is reached when no base URL is set (the AI SDK's defaults; Ollama's for local). */
export const DEFAULT_BASE_URLS: Record<ProviderId, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': 'http://127.0.0.1:11434/v1'
}

/** The environment variables the main process reads (providers-service.ts), for hints. */
export const PROVIDER_ENV: Record<ProviderId, { key: string; baseURL: string }> = {
  openai: { key: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseURL: 'ANTHROPIC_BASE_URL' },
  google: { key: 'GOOGLE_GENERATIVE_AI_API_KEY', baseURL: 'GOOGLE_GENERATIVE_AI_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_COMPATIBLE_API_KEY', baseURL: 'OPENAI_COMPATIBLE_BASE_URL' }
}

/** What a provider that cannot chat yet is missing, for menus: "needs key" / "needs address". */
export function missingLabel(provider: ProviderId): string {
  return provider === 'openai-compatible' ? 'needs address' : 'needs key'
}

/** A model's picker value: "anthropic:claude-sonnet-4-5". Model ids may contain colons; provider ids never do. */
export function modelValue(provider: ProviderId, modelId: string): string {
  return `${provider}:${modelId}`
}

export function parseModelValue(value: string): { provider: ProviderId; modelId: string } | null {
  const at = value.indexOf(':')
  if (at < 0) return null
  const provider = value.slice(0, at)
  const modelId = value.slice(at + 1)
  if (!(PROVIDER_ORDER as readonly string[]).includes(provider) || modelId === '') return null
  return { provider: provider as ProviderId, modelId }
}
