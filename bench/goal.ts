/** Milliseconds as the bench tables print them. */
export const fmtMs = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`)

/**
 * A goal line that reads every figure printed beside it: met only when each one is under the
 * limit, and each one over it says so (a first request or a keystroke is a figure like any other).
 */
export function goalLine(
  goal: string,
  limitMs: number,
  figures: ReadonlyArray<readonly [label: string, ms: number]>
): string {
  const over = figures.filter(([, ms]) => !(ms < limitMs))
  const shown = figures.map(([label, ms]) => `${label} ${fmtMs(ms)}${ms < limitMs ? '' : ' OVER'}`).join(', ')
  return `  Goal ${goal} < ${fmtMs(limitMs)}: ${over.length === 0 ? 'met' : `NOT met (${over.length} of ${figures.length} over)`} (${shown})`
}
