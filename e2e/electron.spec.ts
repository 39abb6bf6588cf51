import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'

/*
 * The desktop app itself: the built bundle in a real Electron, driven by Playwright. Written for
 * machines that have the Electron binary and a display; everywhere else it is skipped with the
 * reason (browser-mode specs cover the same stack there).
 */

const ROOT = join(__dirname, '..')
const MAIN = join(ROOT, 'out', 'main', 'index.js')

function electronUnavailable(): string | null {
  let binary: string
  try {
    // The electron package exports the path of its binary, and throws when it was never downloaded.
    binary = createRequire(join(ROOT, 'package.json'))('electron') as string
  } catch (err) {
    return `Electron binary not available on this machine: ${(err as Error).message.split('\n')[0]}`
  }
  if (!existsSync(binary)) return `Electron binary not available on this machine: ${binary} is missing`
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'Electron needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set (try xvfb-run)'
  }
  return null
}

const unavailable = electronUnavailable()
test.skip(unavailable !== null, unavailable ?? '')

/** better-sqlite3 must be built for the runtime that loads it; switching is cached after the first build. */
function ensureNative(runtime: 'node' | 'electron'): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-native.mjs'), runtime], {
    cwd: ROOT,
    encoding: 'utf8'
  })
  if (result.status !== 0) throw new Error(`ensure-native ${runtime} failed:\n${result.stderr}`)
}

let dir: string
let app: ElectronApplication
let page: Page

test.beforeAll(async () => {
  test.setTimeout(240_000) // a first-time Electron build of better-sqlite3 takes a minute or two
  if (!existsSync(MAIN)) throw new Error('The app is not built: run `npm run build` (scripts/e2e.mjs does).')
  ensureNative('electron')
  dir = mkdtempSync(join(tmpdir(), 'distill-electron-'))
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value
  }
  app = await _electron.launch({
    // Chromium refuses to run as root with its sandbox (containers); the renderer keeps
    // contextIsolation and no Node either way.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), MAIN, '--db', join(dir, 'distill.db')],
    cwd: ROOT,
    env
  })
  page = await app.firstWindow()
  await page.waitForLoadState('domcontentloaded')
})

test.afterAll(async () => {
  await app?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  // The browser-mode specs that may run next load better-sqlite3 in plain Node.
  if (unavailable === null) ensureNative('node')
})

test('opens one window titled Distill on our own page', async () => {
  expect(app.windows()).toHaveLength(1)
  await expect(page).toHaveTitle(/Distill/)
  expect(page.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html/)
})

test('the page has no Node and a bridge with exactly request and subscribe', async () => {
  const seen = await page.evaluate(() => ({
    require: typeof (globalThis as { require?: unknown }).require,
    process: typeof (globalThis as { process?: unknown }).process,
    bridgeKeys: Object.keys((window as unknown as { distill: object }).distill).sort()
  }))
  expect(seen).toEqual({ require: 'undefined', process: 'undefined', bridgeKeys: ['request', 'subscribe'] })
})

test('the bridge answers through the router, and refuses a non-string route', async () => {
  const answers = await page.evaluate(async () => {
    const bridge = (window as unknown as { distill: { request(r: unknown, i: unknown): Promise<unknown> } }).distill
    return { info: await bridge.request('app.info', {}), bad: await bridge.request(42, {}) }
  })
  expect(answers.info).toMatchObject({ ok: true, data: { name: 'Distill', mode: 'electron' } })
  expect(answers.bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
})

test('the window refuses to open other windows', async () => {
  // (an http(s) URL would be handed to the OS browser; about:blank is simply refused)
  const opened = await page.evaluate(() => window.open('about:blank') !== null)
  expect(opened).toBe(false)
  // The main process decides window.open synchronously: asking it afterwards sees its answer.
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1)
})

test('creates a chat, sends a message and sees it', async () => {
  await page.getByRole('button', { name: 'New chat' }).first().click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Hello from the desktop app')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('main').getByText('Hello from the desktop app').first()).toBeVisible()
  await expect(composer).toHaveValue('')
})
