import { describe, expect, it } from 'vitest'
import { recountOnThread, type CountUpdate, type RecountOnThread, type StaleMessage } from './recount-on-thread'

/** A chat of `n` stale messages (seq 1..n) read newest first, `size` at a time, and a thread counting them. */
function chat(n: number, size: number) {
  const stale = new Map<number, StaleMessage>()
  for (let seq = 1; seq <= n; seq++)
    stale.set(seq, { id: `m${seq}`, seq, tokenCount: seq, tokenCounter: 'tiktoken:o200k_base' })
  const stored: CountUpdate[][] = []
  const events: string[] = []
  let jobs = 0
  let inFlight = 0
  let mostInFlight = 0
  const options: RecountOnThread = {
    read: (before) =>
      [...stale.values()]
        .filter((m) => m.seq < before)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, size),
    count(ids) {
      const job = ++jobs
      inFlight++
      mostInFlight = Math.max(mostInFlight, inFlight)
      events.push(`count ${job}`)
      return new Promise((resolve) =>
        setTimeout(() => {
          inFlight--
          resolve(ids.map((id) => ({ id, tokens: Number(id.slice(1)) * 2, counter: 'estimate:anthropic' })))
        }, 2)
      )
    },
    store(counts) {
      events.push(`store ${stored.length + 1}`)
      stored.push(counts)
      for (const c of counts) stale.delete(Number(c.id.slice(1)))
    },
    goesOn: () => true,
    ahead: 2,
    failed: () => undefined,
    yieldTurn: () => new Promise((resolve) => setImmediate(resolve))
  }
  return { stale, stored, events, options, mostInFlight: () => mostInFlight }
}

describe('recountOnThread', () => {
  it('stores every count the thread made, newest first, with the count it replaces', async () => {
    const c = chat(10, 3)
    await expect(recountOnThread(c.options)).resolves.toBeUndefined()
    expect(c.stale.size).toBe(0)
    expect(c.stored.map((batch) => batch.map((u) => u.id))).toEqual([
      ['m10', 'm9', 'm8'],
      ['m7', 'm6', 'm5'],
      ['m4', 'm3', 'm2'],
      ['m1']
    ])
    expect(c.stored[0]![0]).toEqual({
      id: 'm10',
      from: { counter: 'tiktoken:o200k_base', tokens: 10 },
      to: { counter: 'estimate:anthropic', tokens: 20 }
    })
  })

  it('keeps the thread busy: its next job is posted before the last one is stored', async () => {
    const c = chat(10, 3)
    await recountOnThread(c.options)
    expect(c.mostInFlight()).toBe(2)
    expect(c.events.slice(0, 4)).toEqual(['count 1', 'count 2', 'count 3', 'store 1'])
  })

  it('hands back the first batch not stored when a job fails, and what was counted before it is kept', async () => {
    const c = chat(10, 3)
    const count = c.options.count
    let calls = 0
    const failures: unknown[] = []
    const from = await recountOnThread({
      ...c.options,
      count: (ids) => (++calls === 2 ? Promise.reject(new Error('thread crashed')) : count(ids)),
      failed: (err) => failures.push(err)
    })
    expect(from).toBe(8) // m7 and below are left to the caller
    expect(c.stored.flat().map((u) => u.id)).toEqual(['m10', 'm9', 'm8'])
    expect(failures).toHaveLength(1)
  })

  it('hands everything back where no thread can count', async () => {
    const c = chat(4, 3)
    await expect(recountOnThread({ ...c.options, count: () => undefined })).resolves.toBe(Number.POSITIVE_INFINITY)
    expect(c.stored).toEqual([])
  })

  it('stops storing once the chat no longer needs the counts', async () => {
    const c = chat(10, 3)
    let stores = 0
    await expect(
      recountOnThread({
        ...c.options,
        store: (counts, n) => {
          stores++
          c.options.store(counts, n)
        },
        goesOn: () => stores < 2
      })
    ).resolves.toBeUndefined()
    expect(c.stored).toHaveLength(2)
  })
})
