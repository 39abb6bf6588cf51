/**
 * Past the window's worth that a backlog's quick summary keeps or summarizes as usual, it reads this
 * many tokens more: at about 3 µs a token offline, the send it precedes waits ~100 ms however long
 * the history (an imported 100,000-message chat's first send summarized 6 M tokens first, a minute).
 */
export const BACKLOG_NEAR_TOKENS = 8_000

/**
 * A span this long is a backlog, not one compression's worth: an imported or never-compressed
 * history. A rolling compression never summarizes more than the window, so four windows is past
 * anything a chat grows by itself between two summaries.
 */
export function isBacklog(spanTokens: number, window: number): boolean {
  return spanTokens > Math.max(4 * window, 4 * BACKLOG_NEAR_TOKENS)
}

const day = (ms: number) =>
  // Imported rows without a real date carry small numbers: no date is better than 1970.
  ms > Date.UTC(1990, 0) ? new Date(ms).toISOString().slice(0, 10) : undefined

/**
 * What the quick summary says of the part it did not read: the model is told these messages exist
 * and are not in the text yet (the loss invariant: nothing leaves a request unannounced).
 */
export function backlogNote(far: {
  messages: number
  first: { createdAt: number }
  last: { createdAt: number }
}): string {
  const from = day(far.first.createdAt)
  const to = day(far.last.createdAt)
  const when = from && to ? (from === to ? ` from ${from}` : ` from ${from} to ${to}`) : ''
  const n = far.messages.toLocaleString('en-US')
  return (
    `[Older history: ${n} earlier message${far.messages === 1 ? ' is' : 's are'}${when} not in this summary yet; ` +
    'a summary of them is being written. What follows summarizes the messages after them.]'
  )
}

/** How long after a backlog's quick summary the whole history's summary starts (background-summaries). */
export const BACKLOG_START_MS = 2_000
