import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DistillBridge } from '../shared/contract/bridge'

// The preload runs only inside Electron; here 'electron' is a stand-in that records what it is given.
const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  return {
    exposed: new Map<string, unknown>(),
    listeners,
    calls: [] as unknown[][],
    answer: (): Promise<unknown> => Promise.resolve(undefined),
    emit(channel: string, ...args: unknown[]) {
      for (const l of listeners.get(channel) ?? []) l({ sender: 'ipc-event' }, ...args)
    }
  }
})

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api)
  },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      electron.calls.push(args)
      return electron.answer()
    },
    on: (channel: string, l: (...args: unknown[]) => void) => {
      if (!electron.listeners.has(channel)) electron.listeners.set(channel, new Set())
      electron.listeners.get(channel)!.add(l)
    },
    removeListener: (channel: string, l: (...args: unknown[]) => void) => electron.listeners.get(channel)?.delete(l)
  }
}))

describe('the preload bridge', () => {
  let bridge: DistillBridge
  beforeAll(async () => {
    await import('./index')
    bridge = electron.exposed.get('distill') as DistillBridge
  })
  beforeEach(() => {
    electron.calls.length = 0
  })

  it('exposes window.distill with exactly request and subscribe', () => {
    expect([...electron.exposed.keys()]).toEqual(['distill'])
    expect(Object.keys(bridge).sort()).toEqual(['request', 'subscribe'])
  })

  it('sends (route, input) on the rpc channel and returns the answer', async () => {
    electron.answer = () => Promise.resolve({ ok: true, data: 1 })
    await expect(bridge.request('sessions.list', { query: 'x' })).resolves.toEqual({ ok: true, data: 1 })
    expect(electron.calls).toEqual([['distill:rpc', 'sessions.list', { query: 'x' }]])
  })

  it('refuses a non-string route without calling the main process', async () => {
    for (const route of [42, undefined, '', { toString: () => 'x' }]) {
      const result = await bridge.request(route as string, {})
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    }
    expect(electron.calls).toEqual([])
  })

  it('turns a failed invoke into an error result instead of a rejection', async () => {
    electron.answer = () => Promise.reject(new Error('An object could not be cloned.'))
    const result = await bridge.request('sessions.list', { f: () => 1 })
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(!result.ok && result.error.message).toContain('could not be cloned')
  })

  it('delivers event envelopes without the IPC event object, until unsubscribed', () => {
    const seen: unknown[] = []
    const unsubscribe = bridge.subscribe((envelope) => seen.push(envelope))
    const envelope = { event: 'sessions.changed', payload: { sessionId: 's', reason: 'created' } }
    electron.emit('distill:event', envelope)
    expect(seen).toEqual([envelope])
    unsubscribe()
    electron.emit('distill:event', envelope)
    expect(seen).toHaveLength(1)
    expect(electron.listeners.get('distill:event')?.size).toBe(0)
  })

  it('rejects a subscriber that is not a function', () => {
    expect(() => bridge.subscribe('nope' as never)).toThrow(TypeError)
  })
})
