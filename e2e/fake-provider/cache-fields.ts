/** Top-level OpenAI prompt-cache parameters a strict OpenAI-compatible server does not know. */
const OPENAI_FIELDS = ['prompt_cache_key', 'prompt_cache_retention', 'prompt_cache_options']

function hasCacheControl(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasCacheControl)
  if (value == null || typeof value !== 'object') return false
  return Object.entries(value).some(([k, v]) => k === 'cache_control' || hasCacheControl(v))
}

/** The first prompt-cache field the request carries (Anthropic's cache_control anywhere), if any. */
export function cacheFieldIn(body: Record<string, unknown>): string | undefined {
  const field = OPENAI_FIELDS.find((f) => body[f] !== undefined)
  if (field) return field
  return hasCacheControl(body) ? 'cache_control' : undefined
}
