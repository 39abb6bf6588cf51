// Can this machine show the Electron window? Finds the binary, and tells why not in one sentence.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** null when a window can be shown, else the reason (Linux needs an X11 or Wayland display). */
export function displayProblem(platform = process.platform, env = process.env) {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return null
  if (env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim()) return null
  return 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)'
}

/** null when Electron may run as this user; Chromium's sandbox refuses root on Linux. */
export function userProblem(platform = process.platform, uid = process.getuid?.()) {
  if (platform === 'linux' && uid === 0)
    return "Electron's sandbox does not run as root (start Distill as a normal user)"
  return null
}

/**
 * The Electron executable, found the way `require('electron')` finds it (node_modules/electron/
 * path.txt, written by its install script, plus dist/), without caching a failure.
 * @returns {{ ok: true, path: string } | { ok: false, reason: string }}
 */
export function locateElectron(root, env = process.env) {
  const pkgDir = join(root, 'node_modules', 'electron')
  if (!existsSync(join(pkgDir, 'package.json'))) return { ok: false, reason: 'the electron package is not installed' }
  let relative
  try {
    relative = readFileSync(join(pkgDir, 'path.txt'), 'utf8').trim()
  } catch {
    relative = ''
  }
  const override = env.ELECTRON_OVERRIDE_DIST_PATH
  if (!relative && !override) return { ok: false, reason: 'the Electron binary has not been downloaded' }
  const path = override ? join(override, relative || 'electron') : join(pkgDir, 'dist', relative)
  if (!existsSync(path)) return { ok: false, reason: `the Electron binary is missing (${path})` }
  return { ok: true, path }
}

/**
 * Runs electron's own install script once (it downloads the binary from GitHub). Offline it fails
 * within a second; a slow network gets `timeoutMs`.
 * @returns {{ ok: boolean, detail: string }}
 */
export function installElectron(root, { timeoutMs = 60_000, env = process.env } = {}) {
  const pkgDir = join(root, 'node_modules', 'electron')
  const script = join(pkgDir, 'install.js')
  if (!existsSync(script)) return { ok: false, detail: 'node_modules/electron/install.js is missing' }
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { ok: false, detail: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set' }
  const result = spawnSync(process.execPath, [script], {
    cwd: pkgDir,
    env,
    timeout: timeoutMs,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  })
  if (result.error?.code === 'ETIMEDOUT')
    return { ok: false, detail: `the download took longer than ${Math.round(timeoutMs / 1000)} s` }
  if (result.error) return { ok: false, detail: result.error.message }
  if (result.status !== 0) return { ok: false, detail: firstErrorLine(result.stderr) || `exit code ${result.status}` }
  return { ok: true, detail: 'downloaded' }
}

/** "TypeError: fetch failed" out of a stack trace. */
export function firstErrorLine(text = '') {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  return lines.find((l) => /^\w*Error\b|^error\b/i.test(l)) ?? lines[0] ?? ''
}

/**
 * Separates start.mjs's own flag (--browser: skip Electron) from the arguments forwarded to the
 * app (e.g. --db FILE, --port N).
 */
export function splitStartArgs(argv) {
  const forward = []
  let browser = false
  for (const arg of argv) {
    if (arg === '--browser') browser = true
    else forward.push(arg)
  }
  return { browser, forward }
}

/** The exit code a parent should use for a child that ended with (code, signal). */
export function exitCodeFor(code, signal, signals = {}) {
  if (code !== null && code !== undefined) return code
  if (signal && signals[signal]) return 128 + signals[signal]
  return 1
}
