import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { app, BrowserWindow, dialog, ipcMain, Menu, session } from 'electron'
import { createApp, type App } from './app'
import { DatabaseOpenError } from './db/client'
import { createConsoleLogger } from './logger'
import { createIpcAdapter, type IpcAdapter } from './platform/ipc'
import { keychainCipher } from './platform/safe-storage'
import { autoUpdater } from 'electron-updater'
import { startUpdateChecks, updateCheckOff, type UpdateChecks } from './platform/auto-update'
import { appMenuTemplate } from './platform/app-menu'
import { notifyAutoCompressions } from './platform/os-notifications'
import { createFileSecretStore } from './services/settings/secret-store'
import { routerWatchedBy, warmAppWhenQuiet, type QuietWarmUp } from './services/conversation/warm-when-quiet'
import { resolveShellLocation } from './platform/launch-options'
import { isAppUrl, resolveRendererTarget } from './platform/url-policy'
import { createMainWindow, focusWindow, guardWebContents, installSessionSecurity } from './window'

/*
 * The Electron entry: lifecycle, the single-instance lock and the wiring of the shared app
 * (app.ts) to the IPC adapter and the window. Everything else lives in app.ts and below.
 */

const log = createConsoleLogger()

const location = resolveShellLocation({
  argv: process.argv,
  env: process.env,
  defaultUserData: app.getPath('userData')
})
// Before the lock: the lock lives in the profile directory, so there is one instance per database.
if (location.userData !== app.getPath('userData')) {
  mkdirSync(location.userData, { recursive: true })
  app.setPath('userData', location.userData)
}
// Every renderer sandboxed, whatever its webPreferences say.
app.enableSandbox()

function startupErrorMessage(err: unknown): string {
  if (err instanceof DatabaseOpenError) return err.message
  const message = err instanceof Error ? err.message : String(err)
  if (/NODE_MODULE_VERSION|did not self-register|Could not locate the bindings file/.test(message)) {
    return (
      'The SQLite module (better-sqlite3) is not built for this version of Electron. ' +
      'Start Distill with "npm start", which rebuilds it, or run "node scripts/ensure-native.mjs electron".\n\n' +
      message
    )
  }
  return `Distill could not start: ${message}`
}

/** Shown instead of a window; the database is never touched further (nor overwritten). */
function failStartup(err: unknown): void {
  log.error('Startup failed', err)
  dialog.showErrorBox('Distill cannot start', startupErrorMessage(err))
  app.exit(1)
}

function run(): void {
  const target = resolveRendererTarget({
    mainDir: __dirname,
    devUrl: process.env.ELECTRON_RENDERER_URL,
    isPackaged: app.isPackaged
  })
  const preload = join(__dirname, '..', 'preload', 'index.js')
  let distill: App | null = null
  let ipc: IpcAdapter | null = null
  let mainWindow: BrowserWindow | null = null
  let updates: UpdateChecks | null = null
  let warm: QuietWarmUp | null = null

  const openWindow = () => {
    const win = createMainWindow({ target, preload, log })
    ipc?.attach(win.webContents)
    mainWindow = win
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null
    })
  }

  app.on('second-instance', () => {
    if (mainWindow) focusWindow(mainWindow)
    else if (distill && app.isReady()) openWindow()
  })
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('activate', () => {
    if (distill && BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  app.on('will-quit', () => {
    warm?.stop()
    warm = null
    updates?.stop()
    updates = null
    ipc?.dispose()
    ipc = null
    distill?.close()
    distill = null
  })

  app
    .whenReady()
    .then(() => {
      try {
        distill = createApp({
          dbFile: location.dbFile,
          mode: 'electron',
          log,
          secrets: createFileSecretStore(join(dirname(location.dbFile), 'secrets.json'), keychainCipher())
        })
      } catch (err) {
        failStartup(err)
        return
      }
      log.info(`Database: ${distill.database.file}`)
      installSessionSecurity(session.defaultSession, target)
      // The window opens first; the tokenizers and the newest chat load once its first page is served.
      warm = warmAppWhenQuiet(distill, log.warn)
      ipc = createIpcAdapter({
        ipcMain,
        router: routerWatchedBy(distill.router, warm),
        events: distill.events,
        isAppUrl: (url) => isAppUrl(url, target),
        log
      })
      const running = distill
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          appMenuTemplate(process.platform, (command) => running.events.emit('ui.command', { command }))
        )
      )
      notifyAutoCompressions(running.events, () => running.services.settings.get().notifications)
      openWindow()
      // Packaged builds only (the feed is in electron-builder.yml), unless DISTILL_NO_UPDATE_CHECK is set.
      const updatesOff = updateCheckOff({ isPackaged: app.isPackaged, env: process.env })
      if (updatesOff) log.info(`Update checks off: ${updatesOff}`)
      else updates = startUpdateChecks({ updater: autoUpdater, log })
    })
    .catch(failStartup)
}

if (app.requestSingleInstanceLock()) {
  run()
} else {
  // Another Distill owns this database; it has been asked (second-instance) to come to the front.
  app.quit()
}
