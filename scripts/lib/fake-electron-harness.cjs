// Runs the BUILT Electron entry (out/main/index.js) in plain Node with a stand-in 'electron'
// module, so the real wiring (argv, createApp, IPC adapter, window options, error dialog) can be
// checked on machines without the Electron binary. Used by electron-main.test.mjs.
// Usage: node fake-electron-harness.cjs <scenario> [app argv...]; prints one JSON report line.
'use strict'
const { EventEmitter } = require('node:events')
const Module = require('node:module')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

const root = join(__dirname, '..', '..')
const [scenario, ...appArgs] = process.argv.slice(2)
process.argv = [process.execPath, root, ...appArgs]

const report = {
  scenario,
  setPaths: {},
  quit: 0,
  exitCode: null,
  errorBoxes: [],
  windows: [],
  handlers: [],
  sent: [],
  csp: null,
  permissionHandlers: 0
}
const appEvents = new EventEmitter()
let resolveReady
const ready = new Promise((r) => (resolveReady = r))
const userDataRoot = process.env.FAKE_USER_DATA
const handlers = new Map()
const windows = []

let frameIds = 1
class FakeWebContents extends EventEmitter {
  constructor() {
    super()
    this.url = ''
    this.destroyed = false
    this.mainFrame = {
      get url() {
        return this._c.url
      },
      parent: null,
      processId: 1,
      routingId: frameIds++
    }
    this.mainFrame._c = this
    this.session = { addWordToSpellCheckerDictionary() {} }
  }
  getURL() {
    return this.url
  }
  isDestroyed() {
    return this.destroyed
  }
  send(channel, payload) {
    report.sent.push({ channel, event: payload && payload.event })
  }
  setWindowOpenHandler(h) {
    this.openHandler = h
  }
  replaceMisspelling() {}
}

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super()
    this.webContents = new FakeWebContents()
    this.record = { options, loaded: null, shown: false }
    appEvents.emit('web-contents-created', {}, this.webContents)
    windows.push(this)
    report.windows.push(this.record)
  }
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed)
  }
  loadFile(file) {
    this.record.loaded = file
    this.webContents.url = pathToFileURL(file).href
    setImmediate(() => this.emit('ready-to-show'))
    return Promise.resolve()
  }
  loadURL(url) {
    this.record.loaded = url
    this.webContents.url = url
    return Promise.resolve()
  }
  show() {
    this.record.shown = true
  }
  isDestroyed() {
    return !!this.destroyed
  }
  isVisible() {
    return this.record.shown
  }
  isMinimized() {
    return false
  }
  focus() {}
  setBackgroundColor() {}
  close() {
    this.destroyed = true
    this.webContents.destroyed = true
    this.webContents.emit('destroyed')
    this.emit('closed')
    if (BrowserWindow.getAllWindows().length === 0) appEvents.emit('window-all-closed')
  }
}

const app = {
  isPackaged: false,
  getPath: (name) => report.setPaths[name] || join(userDataRoot, name),
  setPath: (name, value) => {
    report.setPaths[name] = value
  },
  enableSandbox: () => {
    report.sandboxEnabled = true
  },
  requestSingleInstanceLock: () => scenario !== 'second-instance',
  on: (event, fn) => {
    appEvents.on(event, fn)
    return app
  },
  whenReady: () => ready,
  isReady: () => true,
  quit: () => {
    report.quit++
    appEvents.emit('will-quit')
  },
  exit: (code) => {
    report.exitCode = code
  }
}

const electron = {
  app,
  BrowserWindow,
  ipcMain: {
    handle: (channel, fn) => {
      handlers.set(channel, fn)
      report.handlers.push(channel)
    },
    removeHandler: (channel) => handlers.delete(channel)
  },
  dialog: { showErrorBox: (title, message) => report.errorBoxes.push({ title, message }) },
  session: {
    defaultSession: {
      webRequest: {
        onHeadersReceived: (listener) => {
          listener(
            { url: 'file:///x', responseHeaders: {} },
            (r) => (report.csp = r.responseHeaders['Content-Security-Policy'][0])
          )
        }
      },
      setPermissionRequestHandler: () => report.permissionHandlers++,
      setPermissionCheckHandler: () => report.permissionHandlers++
    }
  },
  nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
  // A keychain that "encrypts" by reversing bytes: enough to see keys never land in plain text.
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (s) => Buffer.from(s).reverse(),
    decryptString: (b) => Buffer.from(b).reverse().toString()
  },
  Menu: {
    buildFromTemplate: (t) => ({ template: t, popup() {} }),
    setApplicationMenu: (m) => (report.menu = m.template.map((i) => i.label ?? i.role))
  },
  Notification: Object.assign(function () {}, { isSupported: () => false }),
  clipboard: { writeText() {} },
  shell: { openExternal: async () => {} }
}

const electronPath = require.resolve('electron', { paths: [join(root, 'out', 'main')] })
const fake = new Module(electronPath)
fake.exports = electron
fake.loaded = true
require.cache[electronPath] = fake

async function main() {
  require(join(root, 'out', 'main', 'index.js'))
  resolveReady()
  // Start-up opens the database before the window: on a busy machine that takes a while, so wait
  // for the window to be shown (or for start-up to give up) instead of a fixed pause.
  for (
    let waited = 0;
    waited < 10_000 &&
    !windows[0]?.record.shown &&
    !report.errorBoxes.length &&
    !report.quit &&
    report.exitCode === null;
    waited += 25
  ) {
    await new Promise((r) => setTimeout(r, 25))
  }
  const win = windows[0]
  const call = (event, route, input) => handlers.get('distill:rpc')(event, route, input)
  if (win) {
    const fromWindow = { sender: win.webContents, senderFrame: win.webContents.mainFrame }
    report.info = await call(fromWindow, 'app.info', {})
    report.created = await call(fromWindow, 'sessions.create', { title: 'Smoke' })
    const iframe = { url: win.webContents.url, parent: win.webContents.mainFrame, processId: 1, routingId: 999 }
    report.fromIframe = await call({ sender: win.webContents, senderFrame: iframe }, 'sessions.list', {})
    const stranger = new FakeWebContents()
    stranger.url = win.webContents.url
    report.fromStranger = await call({ sender: stranger, senderFrame: stranger.mainFrame }, 'sessions.list', {})
    report.openHandler = win.webContents.openHandler({ url: 'about:blank' })
    report.preload = win.record.options.webPreferences.preload
    win.close()
    report.handlersAfterQuit = [...handlers.keys()]
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
}

main().catch((err) => {
  process.stdout.write(`${JSON.stringify({ ...report, harnessError: String(err && err.stack) })}\n`)
  process.exitCode = 1
})
