// Keeps node_modules/better-sqlite3 built for the runtime about to use it: Node (tests, CLI, browser
// mode) or Electron (the desktop app). Rebuilding takes about a minute, so:
//   - a marker (build/distill-abi.json) records which runtime and ABI the binary was built for,
//     together with the binary's size and mtime, so a stale marker is never believed;
//   - without a valid marker, loading the module in a child Node tells the ABI (Node's error names
//     the NODE_MODULE_VERSION the file was compiled for);
//   - each verified build is kept in node_modules/.cache/distill-native/, so switching between
//     `npm test` and `npm start` after the first time is a file copy, not a rebuild.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export function nativePaths(root) {
  const moduleDir = join(root, 'node_modules', 'better-sqlite3')
  return {
    root,
    moduleDir,
    binary: join(moduleDir, 'build', 'Release', 'better_sqlite3.node'),
    marker: join(moduleDir, 'build', 'distill-abi.json'),
    cacheDir: join(root, 'node_modules', '.cache', 'distill-native'),
    electronDir: join(root, 'node_modules', 'electron')
  }
}

function statOrNull(path) {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

function moduleVersion(paths) {
  return readJson(join(paths.moduleDir, 'package.json'))?.version ?? 'unknown'
}

/** The marker, if it describes the binary that is there now. */
export function readMarker(paths) {
  const marker = readJson(paths.marker)
  const stat = statOrNull(paths.binary)
  if (!marker || !stat) return null
  if (marker.size !== stat.size || marker.mtimeMs !== stat.mtimeMs) return null
  if (typeof marker.runtime !== 'string' || typeof marker.abi !== 'string') return null
  return marker
}

export function writeMarker(paths, runtime, abi, extra = {}) {
  const stat = statSync(paths.binary)
  const marker = { runtime, abi: String(abi), size: stat.size, mtimeMs: stat.mtimeMs, ...extra }
  const tmp = `${paths.marker}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(marker, null, 2)}\n`)
  renameSync(tmp, paths.marker)
  return marker
}

/** Does the marker say this runtime and ABI? */
export function markerMatches(marker, runtime, abi) {
  return marker !== null && marker.runtime === runtime && marker.abi === String(abi)
}

/** "...compiled against a different Node.js version using NODE_MODULE_VERSION 145. This version..." → "145" */
export function builtAbiFromError(text) {
  return /using\s+NODE_MODULE_VERSION\s+(\d+)/.exec(text)?.[1] ?? null
}

/** Errors that mean "this binary is not for this runtime (or not there)": a rebuild fixes them. */
export function isAbiProblem(text) {
  return /NODE_MODULE_VERSION|was compiled against a different|Could not locate the bindings file|did not self-register|invalid ELF header|wrong ELF class|not a valid Win32 application|ERR_DLOPEN_FAILED/.test(
    text
  )
}

const PROBE = `
const Database = require('better-sqlite3')
const db = new Database(':memory:')
db.prepare('SELECT 1').get()
db.close()
`

function cleanEnv(env) {
  const out = { ...env }
  delete out.ELECTRON_RUN_AS_NODE
  return out
}

/**
 * Loads better-sqlite3 in a child Node and opens an in-memory database.
 * @returns {{ ok: true } | { ok: false, abiProblem: boolean, builtAbi: string | null, message: string }}
 */
export function probeInNode(paths, env = process.env) {
  const result = spawnSync(process.execPath, ['-e', PROBE], {
    cwd: paths.root,
    env: cleanEnv(env),
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  if (result.status === 0) return { ok: true }
  const message =
    `${result.stderr ?? ''}${result.error ? result.error.message : ''}`.trim() || `exit code ${result.status}`
  return { ok: false, abiProblem: isAbiProblem(message), builtAbi: builtAbiFromError(message), message }
}

/** The NODE_MODULE_VERSION of the installed Electron: node_modules/electron/abi_version, or ask the binary. */
export function electronAbi(paths, { electronBinary, env = process.env } = {}) {
  try {
    const abi = readFileSync(join(paths.electronDir, 'abi_version'), 'utf8').trim()
    if (/^\d+$/.test(abi)) return abi
  } catch {
    // older electron packages do not ship the file
  }
  if (electronBinary && existsSync(electronBinary)) {
    const result = spawnSync(electronBinary, ['-p', 'process.versions.modules'], {
      env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
      timeout: 30_000
    })
    const abi = result.stdout?.trim()
    if (result.status === 0 && /^\d+$/.test(abi)) return abi
  }
  return null
}

export function electronVersion(paths) {
  return readJson(join(paths.electronDir, 'package.json'))?.version ?? null
}

function cacheFile(paths, runtime, abi) {
  const key = `better-sqlite3-${moduleVersion(paths)}-${runtime}-${abi}-${process.platform}-${process.arch}`
  return join(paths.cacheDir, key, 'better_sqlite3.node')
}

/** Copies `from` over `to` atomically (a running process keeps its mapped copy; hard links are not written through). */
function replaceFile(from, to) {
  mkdirSync(dirname(to), { recursive: true })
  const tmp = `${to}.${process.pid}.tmp`
  copyFileSync(from, tmp)
  renameSync(tmp, to)
}

/** Keeps the current binary, known to be for (runtime, abi), for a later switch back. */
export function stash(paths, runtime, abi) {
  const target = cacheFile(paths, runtime, abi)
  const current = statOrNull(paths.binary)
  const cached = statOrNull(target)
  if (!current || (cached && cached.size === current.size)) return
  try {
    replaceFile(paths.binary, target)
  } catch {
    // the cache is an optimisation only
  }
}

/** Puts a cached build for (runtime, abi) in place; false when there is none. */
export function restore(paths, runtime, abi) {
  const source = cacheFile(paths, runtime, abi)
  if (!existsSync(source)) return false
  replaceFile(source, paths.binary)
  return true
}

export function forget(paths, runtime, abi) {
  rmSync(dirname(cacheFile(paths, runtime, abi)), { recursive: true, force: true })
}

/** The last lines of a build log, for the error message. */
export function tail(text = '', lines = 25) {
  return text.trim().split('\n').slice(-lines).join('\n')
}
