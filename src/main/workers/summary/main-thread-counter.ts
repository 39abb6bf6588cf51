/**
 * Token counts for a summary thread, made by the main thread's tokenizer. A thread that loads its own
 * tables for the model's encoding holds ~40 MB more while it runs (enough to take the app past 250 MB
 * while it compresses a 10,000-message chat); an extractive summary counts only its candidate lines
 * and a few drafts of the text (each distinct text once), so asking is cheap. The thread
 * waits on a shared cell for each answer: the summarizer is synchronous and stays so (engine purity).
 */

/** The thread's question: count this text as job `id` counts. */
export interface CountRequest {
  id: number
  count: string
}

const IDLE = 0
const PENDING = 1
const DONE = 2
const FAILED = 3
/** Longer than any main-thread stretch the app allows; then the thread counts for itself. */
const WAIT_MS = 10_000

/** The shared cells: [state, count]. */
export const countCells = (): Int32Array => new Int32Array(new SharedArrayBuffer(8))

export function isCountRequest(message: unknown): message is CountRequest {
  return typeof message === 'object' && message !== null && typeof (message as CountRequest).count === 'string'
}

/**
 * On the thread: counters that ask the main thread (each distinct text once per job). Once an answer
 * fails to come the thread counts for itself from then on, so a late answer never meets a newer question.
 */
export function mainThreadCounting(post: (request: CountRequest) => void, cells: Int32Array) {
  let answering = true
  return (id: number, local: (text: string) => number): ((text: string) => number) => {
    const known = new Map<string, number>()
    return (text) => {
      const hit = known.get(text)
      if (hit !== undefined) return hit
      let n: number | undefined
      if (answering) {
        Atomics.store(cells, 0, PENDING)
        post({ id, count: text })
        Atomics.wait(cells, 0, PENDING, WAIT_MS)
        if (Atomics.load(cells, 0) === DONE) n = Atomics.load(cells, 1)
        else answering = false
        Atomics.store(cells, 0, IDLE)
      }
      n ??= local(text)
      known.set(text, n)
      return n
    }
  }
}

/** On the main thread: answers a request with `count`, or says it cannot (the job is gone). */
export function answerCount(cells: Int32Array, count: ((text: string) => number) | undefined, text: string): void {
  let state = FAILED
  if (count) {
    try {
      Atomics.store(cells, 1, count(text))
      state = DONE
    } catch {
      state = FAILED
    }
  }
  Atomics.store(cells, 0, state)
  Atomics.notify(cells, 0)
}
