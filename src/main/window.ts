import { BrowserWindow, Menu, clipboard, nativeTheme, type Session, type WebContents } from 'electron'
import type { Logger } from './services/service-deps'
import { CONTENT_SECURITY_POLICY } from './transport/http'
import { contextMenuTemplate } from './platform/context-menu'
import { openExternalLink } from './platform/external-links'
import {
  contentSecurityPolicyFor,
  isAppUrl,
  isExternalWebUrl,
  isPermissionAllowed,
  isSameDocument,
  type RendererTarget
} from './platform/url-policy'

/** Painted before the page, so the window does not flash white in dark mode (or black in light). */
export const BACKGROUND = { dark: '#16171a', light: '#ffffff' } as const

const backgroundColor = () => (nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light)

/**
 * Session-wide protection, installed once before the first window: the Content-Security-Policy
 * header on every response (the renderer's index.html carries the same policy as a <meta> tag,
 * which also covers file:// where a header may not apply), and no permission beyond clipboard
 * writes and fullscreen, and those only for our own page.
 */
export function installSessionSecurity(session: Session, target: RendererTarget): void {
  const policy = contentSecurityPolicyFor(target, CONTENT_SECURITY_POLICY)
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders: Record<string, string[]> = {}
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = value
    }
    responseHeaders['Content-Security-Policy'] = [policy]
    callback({ responseHeaders })
  })
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl ?? contents.getURL(), target))
  })
  session.setPermissionCheckHandler((contents, permission, _origin, details) =>
    isPermissionAllowed(permission, details.requestingUrl ?? contents?.getURL(), target)
  )
}

/**
 * For every webContents the app ever creates (installed from app 'web-contents-created'): no
 * <webview>, no new windows. The main window then replaces the open handler with one that hands
 * http(s) links to the OS browser.
 */
export function guardWebContents(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

export interface MainWindowOptions {
  target: RendererTarget
  /** out/preload/index.js */
  preload: string
  log: Logger
}

/**
 * The Distill window: isolated, sandboxed renderer with no Node, our page only. Navigation away
 * from the page is blocked (http(s) links open in the OS browser instead), window.open is denied.
 */
export function createMainWindow({ target, preload, log }: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 820,
    minWidth: 640,
    minHeight: 460,
    title: 'Distill',
    show: false,
    backgroundColor: backgroundColor(),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true
    }
  })
  const contents = win.webContents
  const own = (url: string) => isAppUrl(url, target)

  win.once('ready-to-show', () => win.show())

  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) openExternalLink(url, log)
    else log.warn('Refused to open a window', { url: url.slice(0, 200) })
    return { action: 'deny' }
  })

  contents.on('will-navigate', (event) => {
    const from = contents.getURL()
    if (event.isSameDocument || (own(event.url) && isSameDocument(from, event.url))) return
    event.preventDefault()
    if (isExternalWebUrl(event.url)) openExternalLink(event.url, log)
    else log.warn('Blocked a navigation away from Distill', { url: event.url.slice(0, 200) })
  })
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !own(event.url)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (!own(event.url)) event.preventDefault()
  })

  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params, {
      replaceMisspelling: (word) => contents.replaceMisspelling(word),
      addToDictionary: (word) => contents.session.addWordToSpellCheckerDictionary(word),
      copyText: (text) => clipboard.writeText(text),
      openLink: (url) => openExternalLink(url, log)
    })
    if (template.length > 0) Menu.buildFromTemplate(template).popup({ window: win })
  })

  contents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (!isMainFrame || code === -3 /* ERR_ABORTED: a blocked navigation */) return
    log.error(`The window could not load ${url}: ${description} (${code})`)
    // Never leave an invisible app behind.
    if (!win.isDestroyed() && !win.isVisible()) win.show()
  })
  contents.on('render-process-gone', (_event, details) => {
    log.error(`The window's renderer process ended: ${details.reason} (exit code ${details.exitCode})`)
  })

  const onThemeUpdated = () => {
    if (!win.isDestroyed()) win.setBackgroundColor(backgroundColor())
  }
  nativeTheme.on('updated', onThemeUpdated)
  win.once('closed', () => nativeTheme.off('updated', onThemeUpdated))

  const loading = target.kind === 'file' ? win.loadFile(target.file) : win.loadURL(target.url)
  loading.catch((err: unknown) => log.error('Loading the Distill page failed', err))
  return win
}

/** Brings a window back to the front (used when a second instance is started). */
export function focusWindow(win: BrowserWindow): void {
  if (win.isDestroyed()) return
  if (win.isMinimized()) win.restore()
  if (!win.isVisible()) win.show()
  win.focus()
}
