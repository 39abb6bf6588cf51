import { EventEmitter } from 'node:events'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { silentLogger } from './logger'
import type { RendererTarget } from './platform/url-policy'
import { CONTENT_SECURITY_POLICY } from './transport/http'
import type { installSessionSecurity as InstallSessionSecurity } from './window'

/** What the test reads of the BrowserWindow options (this file may not import electron's types). */
interface BrowserWindowConstructorOptions {
  title?: string
  show?: boolean
  minWidth?: number
  minHeight?: number
  backgroundColor?: string
  webPreferences?: Record<string, unknown>
}
type Session = Parameters<typeof InstallSessionSecurity>[0]

// window.ts runs only inside Electron; this stand-in records what the window is given and lets the
// test fire the webContents events Electron would.
const fake = vi.hoisted(() => {
  const state = {
    windows: [] as Array<{
      options: BrowserWindowConstructorOptions
      shown: number
      loaded: string[]
      contents: EventEmitter & {
        openHandler?: (details: { url: string }) => { action: string }
        url: string
      }
      emitter: EventEmitter
    }>,
    opened: [] as string[],
    dark: false,
    themeListeners: 0
  }
  return state
})

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events')
  class BrowserWindow extends EventEmitter {
    webContents: EventEmitter
    private record: (typeof fake.windows)[number]
    constructor(options: BrowserWindowConstructorOptions) {
      super()
      const contents = Object.assign(new EventEmitter(), {
        url: '',
        openHandler: undefined as undefined | ((details: { url: string }) => { action: string }),
        getURL: () => contents.url,
        setWindowOpenHandler: (h: (d: { url: string }) => { action: string }) => {
          record.contents.openHandler = h
        }
      })
      const record = { options, shown: 0, loaded: [] as string[], contents, emitter: this }
      this.record = record
      this.webContents = contents
      fake.windows.push(record)
    }
    show() {
      this.record.shown++
    }
    isDestroyed() {
      return false
    }
    isVisible() {
      return this.record.shown > 0
    }
    loadFile(file: string) {
      this.record.loaded.push(file)
      this.record.contents.url = pathToFileURL(file).href
      return Promise.resolve()
    }
    loadURL(url: string) {
      this.record.loaded.push(url)
      this.record.contents.url = url
      return Promise.resolve()
    }
    setBackgroundColor() {}
  }
  // (defineProperty, not Object.assign: a getter must stay a getter)
  const nativeTheme = Object.defineProperty(new EventEmitter(), 'shouldUseDarkColors', { get: () => fake.dark })
  return {
    BrowserWindow,
    nativeTheme,
    Menu: { buildFromTemplate: () => ({ popup() {} }) },
    clipboard: { writeText() {} },
    shell: {
      openExternal: (url: string) => {
        fake.opened.push(url)
        return Promise.resolve()
      }
    }
  }
})

const { BACKGROUND, createMainWindow, guardWebContents, installSessionSecurity } = await import('./window')

const indexFile = resolve('/opt/distill/out/renderer/index.html')
const indexUrl = pathToFileURL(indexFile).href
const target: RendererTarget = { kind: 'file', file: indexFile }

function open() {
  createMainWindow({ target, preload: '/opt/distill/out/preload/index.js', log: silentLogger })
  return fake.windows.at(-1)!
}

function navigate(win: ReturnType<typeof open>, eventName: string, url: string, extra: Record<string, unknown> = {}) {
  let prevented = false
  win.contents.emit(eventName, {
    url,
    isSameDocument: false,
    isMainFrame: true,
    ...extra,
    preventDefault: () => (prevented = true)
  })
  return prevented
}

describe('the main window', () => {
  beforeEach(() => {
    fake.windows.length = 0
    fake.opened.length = 0
    fake.dark = false
  })

  it('isolates and sandboxes the renderer, with our preload and no Node', () => {
    const { options } = open()
    expect(options.webPreferences).toMatchObject({
      preload: '/opt/distill/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false
    })
    expect(options).toMatchObject({ title: 'Distill', show: false })
    expect(options.minWidth).toBeGreaterThan(0)
    expect(options.minHeight).toBeGreaterThan(0)
  })

  it('loads the built renderer and shows itself when ready', () => {
    const win = open()
    expect(win.loaded).toEqual([indexFile])
    expect(win.shown).toBe(0)
    win.emitter.emit('ready-to-show')
    expect(win.shown).toBe(1)
  })

  it('paints the background of the system theme', () => {
    expect(open().options.backgroundColor).toBe(BACKGROUND.light)
    fake.dark = true
    expect(open().options.backgroundColor).toBe(BACKGROUND.dark)
  })

  it('denies every new window and hands http(s) links to the OS browser', () => {
    const win = open()
    const handler = win.contents.openHandler!
    expect(handler({ url: 'https://example.com/a' })).toEqual({ action: 'deny' })
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(handler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(fake.opened).toEqual(['https://example.com/a'])
  })

  it('blocks navigation away from the page, opening web links externally', () => {
    const win = open()
    expect(navigate(win, 'will-navigate', 'https://example.com/')).toBe(true)
    expect(navigate(win, 'will-navigate', pathToFileURL('/etc/passwd').href)).toBe(true)
    expect(navigate(win, 'will-navigate', 'smb://host/share')).toBe(true)
    expect(fake.opened).toEqual(['https://example.com/'])
    expect(navigate(win, 'will-navigate', `${indexUrl}#/session/1`)).toBe(false)
    expect(navigate(win, 'will-frame-navigate', 'https://example.com/', { isMainFrame: false })).toBe(true)
    expect(navigate(win, 'will-redirect', 'https://example.com/')).toBe(true)
  })
})

describe('guardWebContents', () => {
  it('refuses webviews and new windows for any webContents', () => {
    const contents = Object.assign(new EventEmitter(), {
      handler: undefined as undefined | (() => unknown),
      setWindowOpenHandler(h: () => unknown) {
        this.handler = h
      }
    })
    guardWebContents(contents as never)
    let prevented = false
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) })
    expect(prevented).toBe(true)
    expect(contents.handler?.()).toEqual({ action: 'deny' })
  })
})

describe('installSessionSecurity', () => {
  function install(t: RendererTarget = target) {
    const captured: Record<string, (...args: never[]) => unknown> = {}
    const session = {
      webRequest: { onHeadersReceived: (l: never) => (captured.headers = l) },
      setPermissionRequestHandler: (h: never) => (captured.request = h),
      setPermissionCheckHandler: (h: never) => (captured.check = h)
    }
    installSessionSecurity(session as unknown as Session, t)
    return captured
  }

  it('replaces any Content-Security-Policy header with ours', () => {
    const { headers } = install()
    let result: { responseHeaders?: Record<string, string[]> } = {}
    const listener = headers as unknown as (details: unknown, cb: (r: typeof result) => void) => void
    listener(
      { url: indexUrl, responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      (r) => (result = r)
    )
    expect(result.responseHeaders).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
    listener({ url: indexUrl }, (r) => (result = r))
    expect(result.responseHeaders).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] })
  })

  it('grants only clipboard writes and fullscreen, and only to our page', () => {
    const { request, check } = install()
    const ask = request as unknown as (wc: unknown, p: string, cb: (ok: boolean) => void, d: unknown) => void
    const answers: boolean[] = []
    const page = { getURL: () => indexUrl }
    ask(page, 'clipboard-sanitized-write', (ok) => answers.push(ok), { requestingUrl: indexUrl })
    ask(page, 'media', (ok) => answers.push(ok), { requestingUrl: indexUrl })
    ask(page, 'clipboard-sanitized-write', (ok) => answers.push(ok), { requestingUrl: 'https://evil.example/' })
    expect(answers).toEqual([true, false, false])
    const probe = check as unknown as (wc: unknown, p: string, origin: string, d: unknown) => boolean
    expect(probe(page, 'notifications', 'file:///', { requestingUrl: indexUrl })).toBe(false)
    expect(probe(null, 'clipboard-sanitized-write', 'file:///', {})).toBe(false)
  })
})
