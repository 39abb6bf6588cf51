/**
 * False while vitest warms a bench up. A figure a bench records itself (a median, a longest stall)
 * must not count a warm-up run: a first run loads modules and fills caches, and would sit in the
 * median. Give the bench its options through `warmedUp` and record only when `isMeasuring()`.
 */
let measuring = true
export const isMeasuring = () => measuring

/** `options` with the setup hook that tells warm-up runs from measured ones. */
export function warmedUp<T extends object>(options: T): T & { setup: (task: unknown, mode?: string) => void } {
  return {
    ...options,
    setup: (_task: unknown, mode?: string) => {
      measuring = mode !== 'warmup'
    }
  }
}
