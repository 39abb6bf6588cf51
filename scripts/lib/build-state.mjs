// Is the electron-vite build missing or older than its sources? Compares modification times only,
// so `npm start` costs a few milliseconds when nothing changed.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What `npm start` needs from the build. */
export const BUILD_OUTPUTS = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.js', 'out/renderer/index.html']

/** What the build is made from (tests and benchmarks do not count). */
export const BUILD_INPUTS = [
  'src',
  'drizzle',
  'electron.vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json'
]

const IGNORED_FILE = /\.(test|spec|bench)\.[cm]?[jt]sx?$/

function mtimeOrNull(path) {
  try {
    return statSync(path).mtimeMs
  } catch {
    return null
  }
}

/** The newest file under `path` (a file or a folder), as { file, mtimeMs }, or null. */
export function newestFile(path) {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return null
  }
  if (!stat.isDirectory()) return { file: path, mtimeMs: stat.mtimeMs }
  let newest = null
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    if (entry.isFile() && IGNORED_FILE.test(entry.name)) continue
    const found = newestFile(join(path, entry.name))
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found
  }
  return newest
}

/**
 * @returns {{ needed: boolean, reason: string }} needed when an output is missing or a source is
 *   newer than the oldest output.
 */
export function buildStatus(root, { outputs = BUILD_OUTPUTS, inputs = BUILD_INPUTS } = {}) {
  let oldestOutput = Infinity
  for (const output of outputs) {
    const mtime = mtimeOrNull(join(root, output))
    if (mtime === null) return { needed: true, reason: `${output} is missing` }
    oldestOutput = Math.min(oldestOutput, mtime)
  }
  for (const input of inputs) {
    const newest = newestFile(join(root, input))
    if (newest && newest.mtimeMs > oldestOutput) {
      return { needed: true, reason: `${newest.file.slice(root.length + 1)} changed since the last build` }
    }
  }
  return { needed: false, reason: 'the build is up to date' }
}
