/** One decimal at most, without a trailing ".0": 41.2, 128, 1. */
function oneDecimal(value: number): string {
  return (Math.round(value * 10) / 10).toFixed(1).replace(/\.0$/, '')
}

/**
 * A token count, short enough for a meter: below 1,000 as is, then one decimal with "k" ("41.2k",
 * "128k"), and from a million on with "M" ("1M", "2.5M").
 */
export function formatTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens))
  if (n < 1000) return String(n)
  if (Math.round(n / 100) < 10_000) return `${oneDecimal(n / 1000)}k`
  return `${oneDecimal(n / 1_000_000)}M`
}

/** A count in full, for details: "105,216". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}
