#!/usr/bin/env node
// `npm start [-- --db FILE] [-- --browser]`: builds if the sources changed, then opens the desktop
// app; where Electron cannot run (binary not downloadable, no display) it says why in one line and
// starts browser mode instead. Arguments are forwarded to the app (--db FILE, --port N for browser mode).
import { spawn, spawnSync } from 'node:child_process'
import { constants } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SERVER_V8_FLAGS } from './lib/server-flags.mjs'
import { buildStatus } from './lib/build-state.mjs'
import {
  displayProblem,
  exitCodeFor,
  installElectron,
  locateElectron,
  splitStartArgs,
  userProblem
} from './lib/launch-env.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { browser: browserRequested, forward } = splitStartArgs(process.argv.slice(2))
const say = (line) => process.stderr.write(`Distill: ${line}\n`)

function childEnv() {
  const env = { ...process.env }
  // Inherited from a parent Electron or tool, it would turn the app into a plain Node process.
  delete env.ELECTRON_RUN_AS_NODE
  return env
}

function build() {
  const status = buildStatus(root)
  if (!status.needed) return
  say(`building (${status.reason})...`)
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit', env: childEnv() })
  if (result.status !== 0) {
    say('the build failed (see above).')
    process.exit(result.status ?? 1)
  }
}

function ensureNative(runtime) {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-native.mjs'), runtime], {
    cwd: root,
    stdio: 'inherit',
    env: childEnv()
  })
  return result.status === 0
}

/** @returns {{ electron: string } | { reason: string }} */
function chooseRuntime() {
  if (browserRequested) return { reason: 'browser mode was requested (--browser)' }
  const problem = displayProblem() ?? userProblem()
  let binary = locateElectron(root)
  if (problem) {
    // No download for a window that cannot be shown anyway.
    return { reason: binary.ok ? problem : `${problem}, and the Electron binary is not installed` }
  }
  if (!binary.ok) {
    say(`${binary.reason}; downloading it once (node_modules/electron/install.js)...`)
    const installed = installElectron(root)
    binary = locateElectron(root)
    if (!binary.ok) return { reason: `the Electron binary is not available (download failed: ${installed.detail})` }
  }
  if (!ensureNative('electron')) return { reason: 'better-sqlite3 could not be built for Electron (see above)' }
  return { electron: binary.path }
}

/** Runs the app in the foreground: signals go to it, its exit code becomes ours. */
function runForeground(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: childEnv() })
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal))
  child.on('error', (err) => {
    say(`could not start ${command}: ${err.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => process.exit(exitCodeFor(code, signal, constants.signals)))
}

build()
const choice = chooseRuntime()
if ('electron' in choice) {
  runForeground(choice.electron, [`--js-flags=${SERVER_V8_FLAGS.join(' ')}`, '.', ...forward])
} else {
  say(`${choice.reason}; starting browser mode instead.`)
  if (!ensureNative('node')) process.exit(1)
  runForeground(process.execPath, [...SERVER_V8_FLAGS, join(root, 'out', 'main', 'cli.js'), 'serve', ...forward])
}
