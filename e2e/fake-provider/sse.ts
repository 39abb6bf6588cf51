import { type ServerResponse } from 'node:http'
import { type StreamPlan } from './types'

export const sseData = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`
export const sseEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

/** Resolves true after `ms`, or false as soon as `signal` aborts (client gone or server closing). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(ok)
    }
    const onAbort = () => done(false)
    const timer = setTimeout(() => done(true), ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Parks a response until the client hangs up or the server closes; holds no timer. */
export function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve()
    res.write(data, () => resolve())
  })
}

/** Abrupt end: no terminating chunk, so fetch bodies fail with "terminated" instead of ending cleanly. */
export async function cutConnection(res: ServerResponse): Promise<void> {
  await new Promise((r) => setImmediate(r))
  res.socket?.destroy()
}

export interface StreamOptions {
  delayMs: number
  fault?: 'stall' | 'cut'
  signal: AbortSignal
}

/** Writes a StreamPlan as SSE. stall: head + first chunk, then silence. cut: a few chunks, then the socket dies. */
export async function runStream(res: ServerResponse, plan: StreamPlan, opts: StreamOptions): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive'
  })
  for (const frame of plan.head) await write(res, frame)
  const n = plan.chunks.length
  const cutAt = Math.max(1, Math.min(3, Math.floor(n / 2)))
  for (let i = 0; i < n; i++) {
    if (opts.fault === 'stall' && i === 1) return waitForAbort(opts.signal)
    if (opts.fault === 'cut' && i === cutAt) return cutConnection(res)
    if (i > 0 && opts.delayMs > 0 && !(await sleep(opts.delayMs, opts.signal))) return
    if (opts.signal.aborted) return
    for (const frame of plan.chunks[i] ?? []) await write(res, frame)
  }
  if (opts.fault === 'stall') return waitForAbort(opts.signal)
  for (const frame of plan.tail) await write(res, frame)
  res.end()
}
