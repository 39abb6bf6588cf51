import { warmEncoder, type EncodingName } from '../../tokens/encoders'

/** Every encoding the catalog's models count with: OpenAI's own, and cl100k for the estimates. */
const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base']

/**
 * Loads the tokenizers a model switch needs shortly after the app opens, one per turn of the
 * event loop, instead of inside the first request after a switch (where loading one stalled the
 * loop 65–250 ms). Returns a stop for the app's close. Timers are unref'd: a process that has
 * nothing else to do ends without waiting for them.
 */
export function warmTokenizers(delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const next = (index: number, delay: number) => {
    if (index >= ENCODINGS.length) return
    timer = setTimeout(() => {
      warmEncoder(ENCODINGS[index]!)
      next(index + 1, 0)
    }, delay)
    timer.unref()
  }
  next(0, delayMs)
  return () => clearTimeout(timer)
}
