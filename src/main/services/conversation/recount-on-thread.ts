/** A message whose stored count is for another counter than the chat's model uses (staleCounted). */
export interface StaleMessage {
  id: string
  seq: number
  tokenCount: number | null
  tokenCounter: string | null
}

/** A message's new count, as the summary thread made it (countMessage). */
export interface Recounted {
  id: string
  tokens: number
  counter: string
}

/** A count to store, with the one it replaces (the context totals move it between counters). */
export interface CountUpdate {
  id: string
  from: { counter: string | null; tokens: number | null }
  to: { counter: string; tokens: number }
}

export interface RecountOnThread {
  /** The next stale messages below `beforeSeq`, newest first (empty when none is left). */
  read(beforeSeq: number): StaleMessage[]
  /** Counts messages by id on the summary thread; undefined where no thread can read the database. */
  count(ids: string[]): Promise<Recounted[]> | undefined
  /** Stores a batch's counts (in short transactions, the event loop free between them); `messages` more are done. */
  store(counts: CountUpdate[], messages: number): void | Promise<void>
  /** False once the recount should stop (the chat's model changed again, the app closes). */
  goesOn(): boolean
  /** Jobs handed to the thread before the first of them is stored. */
  ahead: number
  /** The thread failed a job (said once). */
  failed(err: unknown): void
  /** Gives the event loop back between two stores. */
  yieldTurn(): Promise<void>
}

/**
 * A recount on the summary thread: this loop reads which messages are stale, hands them to the
 * thread by id, and stores what it counted, a batch per turn. The thread is kept `ahead` jobs
 * ahead, its next job posted before the last one is stored, so it never waits for this loop (the
 * two took turns before: ~2 s of storing on top of ~5 s of counting at 100,000 messages).
 * Returns the seq below which the caller counts the rest itself when the thread could not (none
 * can run, or a job failed: from the first batch not stored), else undefined (done, or stopped).
 */
export async function recountOnThread(o: RecountOnThread): Promise<number | undefined> {
  const queued: Array<{ before: number; batch: StaleMessage[]; counted: Promise<Recounted[] | undefined> }> = []
  let next = Number.POSITIVE_INFINITY
  let exhausted = false
  let failed = false
  const fill = () => {
    while (!exhausted && !failed && queued.length < o.ahead) {
      const batch = o.read(next)
      if (batch.length === 0) {
        exhausted = true
        return
      }
      const counting = o.count(batch.map((b) => b.id))
      if (!counting) {
        failed = true
        return
      }
      queued.push({
        before: next,
        batch,
        counted: counting.catch((err: unknown) => {
          if (!failed) o.failed(err)
          failed = true
          return undefined
        })
      })
      next = batch.at(-1)!.seq
    }
  }
  fill()
  while (queued.length > 0 && o.goesOn()) {
    const { before, batch, counted } = queued[0]!
    const counts = await counted
    if (!o.goesOn()) return undefined
    if (!counts) return before
    queued.shift()
    fill()
    const byId = new Map(counts.map((c) => [c.id, c]))
    await o.store(
      batch.flatMap((b) => {
        const c = byId.get(b.id)
        return c
          ? [
              {
                id: b.id,
                from: { counter: b.tokenCounter, tokens: b.tokenCount },
                to: { counter: c.counter, tokens: c.tokens }
              }
            ]
          : []
      }),
      batch.length
    )
    await o.yieldTurn()
  }
  return failed && o.goesOn() ? next : undefined
}
