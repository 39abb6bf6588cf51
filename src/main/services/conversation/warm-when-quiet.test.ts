import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEventHub } from '../../transport/event-hub'
import { routerWatchedBy, warmAppWhenQuiet, warmWhenQuiet } from './warm-when-quiet'

const QUIET = 500

describe('warming up after the app serves', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  function steps(n: number) {
    const ran: number[] = []
    return { ran, steps: Array.from({ length: n }, (_, i) => () => void ran.push(i)) }
  }

  it('runs nothing before the first page is served, however long the app stays idle', () => {
    const { ran, steps: list } = steps(2)
    warmWhenQuiet(list, { warn: () => undefined, quietMs: QUIET })
    vi.advanceTimersByTime(60_000)
    expect(ran).toEqual([])
  })

  it('runs one step per quiet stretch once the first request is answered', () => {
    const { ran, steps: list } = steps(3)
    const warm = warmWhenQuiet(list, { warn: () => undefined, quietMs: QUIET })
    warm.begin()
    warm.end()
    vi.advanceTimersByTime(QUIET - 1)
    expect(ran).toEqual([])
    vi.advanceTimersByTime(1)
    expect(ran).toEqual([0])
    vi.advanceTimersByTime(QUIET)
    expect(ran).toEqual([0, 1])
    vi.advanceTimersByTime(QUIET * 10)
    expect(ran).toEqual([0, 1, 2])
  })

  it('starts when a page opens its event stream, before any request is answered', () => {
    const { ran, steps: list } = steps(1)
    const warm = warmWhenQuiet(list, { warn: () => undefined, quietMs: QUIET })
    warm.start()
    vi.advanceTimersByTime(QUIET)
    expect(ran).toEqual([0])
  })

  it('waits while a request is in flight and for quiet after it, and events put it off', () => {
    const { ran, steps: list } = steps(1)
    const warm = warmWhenQuiet(list, { warn: () => undefined, quietMs: QUIET })
    warm.begin()
    warm.end()
    warm.begin() // a long request: nothing runs under it
    vi.advanceTimersByTime(QUIET * 5)
    expect(ran).toEqual([])
    warm.end()
    vi.advanceTimersByTime(QUIET - 100)
    warm.activity() // a reply streaming
    vi.advanceTimersByTime(QUIET - 100)
    expect(ran).toEqual([])
    vi.advanceTimersByTime(100)
    expect(ran).toEqual([0])
  })

  it('says when a step fails and goes on with the next; nothing runs after stop', () => {
    const warnings: string[] = []
    const ran: string[] = []
    const warm = warmWhenQuiet(
      [
        () => {
          throw new Error('no rank file')
        },
        () => void ran.push('second'),
        () => void ran.push('third')
      ],
      { warn: (message, err) => warnings.push(`${message}: ${(err as Error).message}`), quietMs: QUIET }
    )
    warm.end()
    vi.advanceTimersByTime(QUIET * 2)
    expect(warnings).toEqual(['Warming up after opening failed: no rank file'])
    expect(ran).toEqual(['second'])
    warm.stop()
    vi.advanceTimersByTime(QUIET * 10)
    expect(ran).toEqual(['second'])
  })

  it('counts a router call as a request and an app event as activity', async () => {
    const events = createEventHub()
    const built: string[] = []
    const sessions = { page: () => ({ sessions: [{ id: 'newest' }] }) }
    const usage = {
      conversation: (id: string) => {
        built.push(id)
        throw new Error('stop here')
      }
    }
    const warm = warmAppWhenQuiet({ services: { sessions, usage }, events }, () => undefined)
    let answer: (value: { ok: true; data: null }) => void = () => undefined
    const router = routerWatchedBy({ call: () => new Promise((resolve) => (answer = resolve)) }, warm)
    const call = router.call('sessions.list', {})
    vi.advanceTimersByTime(QUIET * 4)
    expect(built).toEqual([])
    answer({ ok: true, data: null })
    await call
    vi.advanceTimersByTime(QUIET - 1)
    events.emit('sessions.changed', { reason: 'created' } as never)
    vi.advanceTimersByTime(QUIET - 1)
    expect(built).toEqual([])
    vi.advanceTimersByTime(1)
    expect(built).toEqual(['newest'])
    warm.stop()
  })
})
