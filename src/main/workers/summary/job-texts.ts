import { SUMMARY_PREFIX } from '../../engine/build-context'
import type { EngineRole } from '../../engine/types'
import type { ModelSpec } from '../../models/catalog'
import { countMessage } from '../../tokens/message-tokens'

/** A message to summarize: its text, or its id for the thread to read the text from the database itself. */
export type JobMessage = { role: EngineRole; createdAt?: number } & ({ text: string } | { id: string })

/** Reads messages' text by id (on the thread, from its own connection). */
export type ReadTexts = (ids: string[]) => Map<string, string>

/** Counts a summary text as a request carries it (its system message, prefix included: Conversation.summaryTokensOf). */
export function summaryCounter(spec: ModelSpec): (text: string) => number {
  return (text) => countMessage({ role: 'system', parts: [{ type: 'text', text: SUMMARY_PREFIX + text }] }, spec).tokens
}

/** The messages with their text: given with them, or read by id in one go. */
export function withTextsRead<M extends { text: string } | { id: string }>(
  messages: readonly M[],
  readTexts?: ReadTexts
): Array<M & { text: string }> {
  const ids = messages.flatMap((m) => ('text' in m && m.text !== undefined ? [] : 'id' in m ? [m.id] : []))
  const texts = ids.length > 0 && readTexts ? readTexts(ids) : new Map<string, string>()
  return messages.map((m) => {
    const text = 'text' in m && m.text !== undefined ? m.text : 'id' in m ? texts.get(m.id) : undefined
    // A message gone from the database since the plan: the caller does the work from its own copy.
    if (text === undefined) throw new Error(`Message ${'id' in m ? m.id : ''} was not found.`)
    return { ...m, text }
  })
}

/**
 * A summary thread's question for many counts at once (the texts a summary is about to count, see
 * ExtractiveInput.prefetch): one round trip to the main thread instead of one per text. `into` is
 * shared: [state, ...counts].
 */
export interface CountBatch {
  id: number
  countAll: string[]
  into: Int32Array
}

const PENDING = 0
const DONE = 1
const FAILED = 2
/** As long as a single count is waited for (main-thread-counter.ts); then the texts are counted one by one. */
const BATCH_WAIT_MS = 10_000

export function isCountBatch(message: unknown): message is CountBatch {
  return typeof message === 'object' && message !== null && Array.isArray((message as CountBatch).countAll)
}

/** On the main thread: counts each text of the batch with the job's counter, or says it cannot (the job is gone). */
export function answerCountBatch(batch: CountBatch, count: ((text: string) => number) | undefined): void {
  let state = FAILED
  if (count) {
    try {
      batch.countAll.forEach((text, i) => Atomics.store(batch.into, i + 1, count(text)))
      state = DONE
    } catch {
      state = FAILED
    }
  }
  Atomics.store(batch.into, 0, state)
  Atomics.notify(batch.into, 0)
}

/** On the thread: asks the main thread for the texts' counts at once; undefined when no answer came. */
export function countOnMainThread(
  post: (batch: CountBatch) => void,
  id: number,
  texts: string[]
): number[] | undefined {
  if (texts.length === 0) return []
  const into = new Int32Array(new SharedArrayBuffer(4 * (texts.length + 1)))
  post({ id, countAll: texts, into })
  Atomics.wait(into, 0, PENDING, BATCH_WAIT_MS)
  return Atomics.load(into, 0) === DONE ? Array.from(into.subarray(1)) : undefined
}
