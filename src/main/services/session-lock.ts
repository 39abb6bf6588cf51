/** Runs tasks one after another per key: one compression per chat, and a reply waits for it. */
export function createKeyedLock() {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve()
      const next = previous.catch(() => undefined).then(task)
      tails.set(key, next)
      void next
        .finally(() => {
          if (tails.get(key) === next) tails.delete(key)
        })
        .catch(() => undefined)
      return next
    },
    busy: (key: string) => tails.has(key)
  }
}
