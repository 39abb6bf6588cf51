/** A small amount of US dollars as a person reads it: "$0.0021", "$0.04", "$1.20"; "less than $0.0001". */
export function formatCost(usd: number): string {
  if (usd <= 0) return '$0'
  if (usd < 0.0001) return 'less than $0.0001'
  if (usd < 0.01) return `$${usd.toFixed(4)}`
  return `$${usd.toFixed(2)}`
}
