export const MAX_RETENTION = 1_000_000

/** The retention override as typed: empty (summarize everything), a valid count, or why not. */
export function parseRetention(text: string): { value: number | undefined; error: string | null } {
  const trimmed = text.trim()
  if (trimmed === '') return { value: undefined, error: null }
  const n = Number(trimmed)
  if (!Number.isFinite(n)) return { value: undefined, error: 'Enter a number' }
  if (!Number.isInteger(n)) return { value: undefined, error: 'Use a whole number' }
  if (n < 0) return { value: undefined, error: 'Cannot be negative' }
  if (n > MAX_RETENTION) return { value: undefined, error: 'At most 1,000,000 tokens' }
  return { value: n, error: null }
}
