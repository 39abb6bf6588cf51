import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import { afterEach, describe, expect, it } from 'vitest'
import { IPC_CHANNEL, IPC_EVENT_CHANNEL, type RpcResult } from '../../shared/contract'
import { createApp, type App } from '../app'
import { silentLogger } from '../logger'
import { useTempDir } from '../../../test/support/temp-dir'
import { createIpcAdapter } from './ipc'

const APP_URL = 'file:///opt/distill/out/renderer/index.html'
const isAppUrl = (url: string) => url.split('#')[0] === APP_URL

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>

function fakeIpcMain() {
  const handlers = new Map<string, Handler>()
  return {
    handlers,
    handle(channel: string, handler: Handler) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, handler)
    },
    removeHandler(channel: string) {
      handlers.delete(channel)
    }
  }
}

let nextId = 1
function fakeFrame(url: string, parent: unknown = null) {
  return { url, parent, processId: 7, routingId: nextId++ } as unknown as WebFrameMain
}

function fakeContents(url = APP_URL) {
  const emitter = new EventEmitter()
  const sent: Array<[string, unknown]> = []
  let destroyed = false
  const contents = Object.assign(emitter, {
    mainFrame: fakeFrame(url),
    sent,
    getURL: () => url,
    isDestroyed: () => destroyed,
    send: (channel: string, payload: unknown) => sent.push([channel, payload]),
    destroy: () => {
      destroyed = true
      emitter.emit('destroyed')
    }
  })
  return contents as typeof contents & WebContents
}

const invokeEvent = (sender: WebContents, frame: WebFrameMain | null = sender.mainFrame) =>
  ({ sender, senderFrame: frame }) as unknown as IpcMainInvokeEvent

describe('the IPC adapter', () => {
  const tempDir = useTempDir()
  const apps: App[] = []
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()))
  })

  function setup() {
    const app = createApp({ dbFile: join(tempDir(), 'distill.db'), mode: 'electron', log: silentLogger })
    apps.push(app)
    const ipcMain = fakeIpcMain()
    const adapter = createIpcAdapter({ ipcMain, router: app.router, events: app.events, isAppUrl, log: silentLogger })
    const call = (event: IpcMainInvokeEvent, route: unknown, input?: unknown) =>
      ipcMain.handlers.get(IPC_CHANNEL)!(event, route, input) as Promise<RpcResult<unknown>>
    return { app, ipcMain, adapter, call }
  }

  it('registers exactly one handler, on the contract channel', () => {
    const { ipcMain, adapter } = setup()
    expect([...ipcMain.handlers.keys()]).toEqual([IPC_CHANNEL])
    adapter.dispose()
    expect(ipcMain.handlers.size).toBe(0)
  })

  it('serves the main frame of an attached window showing our page', async () => {
    const { adapter, call } = setup()
    const win = fakeContents()
    adapter.attach(win)
    const created = await call(invokeEvent(win), 'sessions.create', { title: 'Hello' })
    expect(created).toMatchObject({ ok: true, data: { title: 'Hello' } })
    const list = await call(invokeEvent(win), 'sessions.list', {})
    expect(list.ok && (list.data as { sessions: unknown[] }).sessions.length).toBe(1)
  })

  it('refuses windows it never attached, subframes, foreign pages and vanished frames', async () => {
    const { adapter, call } = setup()
    const ours = fakeContents()
    adapter.attach(ours)
    const stranger = fakeContents()
    const foreign = fakeContents('https://evil.example/')
    adapter.attach(foreign)

    const cases: Array<[string, IpcMainInvokeEvent]> = [
      ['unattached window', invokeEvent(stranger)],
      ['iframe of our window', invokeEvent(ours, fakeFrame(APP_URL, ours.mainFrame))],
      ['another top frame in our window', invokeEvent(ours, fakeFrame(APP_URL))],
      ['foreign page', invokeEvent(foreign)],
      ['frame gone', invokeEvent(ours, null)]
    ]
    for (const [name, event] of cases) {
      const result = await call(event, 'sessions.create', {})
      expect(result.ok, name).toBe(false)
      expect(!result.ok && result.error.code, name).toBe('unauthorized')
    }
    const list = await call(invokeEvent(ours), 'sessions.list', {})
    expect(list.ok && (list.data as { sessions: unknown[] }).sessions.length).toBe(0)
  })

  it('answers bad routes and inputs with an error result, never a throw', async () => {
    const { adapter, call } = setup()
    const win = fakeContents()
    adapter.attach(win)
    const results = await Promise.all([
      call(invokeEvent(win), 42, {}),
      call(invokeEvent(win), 'no.such.route', {}),
      call(invokeEvent(win), 'sessions.create', { title: 7 }),
      call(invokeEvent(win), '__proto__', {})
    ])
    expect(results.map((r) => !r.ok && r.error.code)).toEqual([
      'invalid_input',
      'not_found',
      'invalid_input',
      'not_found'
    ])
  })

  it('stops serving a window once it is destroyed', async () => {
    const { adapter, call } = setup()
    const win = fakeContents()
    adapter.attach(win)
    win.destroy()
    const result = await call(invokeEvent(win), 'sessions.list', {})
    expect(!result.ok && result.error.code).toBe('unauthorized')
  })

  it('forwards hub events to attached windows showing our page, until they close', async () => {
    const { app, adapter, call } = setup()
    const a = fakeContents()
    const b = fakeContents()
    const foreign = fakeContents('https://evil.example/')
    adapter.attach(a)
    adapter.attach(a) // idempotent: one subscription per window
    const detachB = adapter.attach(b)
    adapter.attach(foreign)

    await call(invokeEvent(a), 'sessions.create', { title: 'One' })
    expect(a.sent.length).toBeGreaterThan(0)
    expect(a.sent.every(([channel]) => channel === IPC_EVENT_CHANNEL)).toBe(true)
    expect(a.sent[0]?.[1]).toMatchObject({ event: 'sessions.changed', payload: { reason: 'created' } })
    expect(b.sent).toEqual(a.sent)
    expect(foreign.sent).toEqual([])

    const before = a.sent.length
    a.destroy()
    detachB()
    app.events.emit('sessions.changed', { sessionId: 'x', reason: 'deleted' })
    expect(a.sent.length).toBe(before)
    expect(b.sent.length).toBe(before)
  })

  it('uses the same channel names as the preload, which inlines them', () => {
    const preload = readFileSync(join(__dirname, '../../preload/index.ts'), 'utf8')
    expect(preload).toContain(`const IPC_CHANNEL = '${IPC_CHANNEL}'`)
    expect(preload).toContain(`const IPC_EVENT_CHANNEL = '${IPC_EVENT_CHANNEL}'`)
  })
})
