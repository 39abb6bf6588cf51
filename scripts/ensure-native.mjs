#!/usr/bin/env node
// Usage: node scripts/ensure-native.mjs <node|electron>
// Makes better-sqlite3 loadable by that runtime, rebuilding only when the ABI differs (quick when
// nothing needs doing). See scripts/lib/native-abi.mjs for how the ABI is detected.
import { spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureNative, NativeBuildError } from './lib/ensure.mjs'
import { locateElectron } from './lib/launch-env.mjs'
import { electronAbi, nativePaths, tail } from './lib/native-abi.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const runtime = process.argv[2]

if (runtime !== 'node' && runtime !== 'electron') {
  process.stderr.write('Usage: node scripts/ensure-native.mjs <node|electron>\n')
  process.exit(2)
}

const paths = nativePaths(root)

function rebuildEnv(target) {
  const env = { ...process.env }
  delete env.ELECTRON_RUN_AS_NODE
  for (const key of Object.keys(env)) {
    const k = key.toLowerCase()
    // Settings meant for the other runtime must not leak into this build. In particular a
    // `nodedir` (this machine's ~/.npmrc points it at /usr so Node builds work offline) would make
    // node-gyp compile the Electron build against Node's headers: the wrong ABI.
    if (k === 'npm_config_runtime' || k === 'npm_config_target' || k === 'npm_config_disturl') delete env[key]
    if (target === 'electron' && k === 'npm_config_nodedir') delete env[key]
  }
  return env
}

function run(command, args, target) {
  const result = spawnSync(command, args, {
    cwd: root,
    env: rebuildEnv(target),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024
  })
  const output = tail(`${result.stdout ?? ''}\n${result.stderr ?? ''}\n${result.error?.message ?? ''}`)
  return { ok: result.status === 0, output }
}

function rebuild(target) {
  if (target === 'node') return run('npm', ['rebuild', 'better-sqlite3'], 'node')
  // @electron/rebuild compiles against Electron's headers, downloaded from electronjs.org into
  // ~/.electron-gyp on first use: offline and without that cache this fails.
  const cli = join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js')
  const result = run(process.execPath, [cli, '-f', '-w', 'better-sqlite3'], 'electron')
  if (!result.ok) {
    result.output +=
      '\n(electron-rebuild downloads the Electron headers from https://www.electronjs.org/headers; ' +
      'that needs the internet once, after which ~/.electron-gyp has them.)'
  }
  return result
}

try {
  let targetAbi = process.versions.modules
  if (runtime === 'electron') {
    const binary = locateElectron(root)
    targetAbi = electronAbi(paths, { electronBinary: binary.ok ? binary.path : undefined })
    if (!targetAbi)
      throw new NativeBuildError(
        'Cannot tell which ABI the installed Electron needs (no node_modules/electron/abi_version).'
      )
  }
  const { action } = ensureNative({
    runtime,
    paths,
    targetAbi,
    rebuild,
    notice: (line) => process.stderr.write(`${line}\n`)
  })
  if (action === 'restored') process.stderr.write(`Distill: switched better-sqlite3 to its cached ${runtime} build.\n`)
  if (action === 'rebuilt') process.stderr.write(`Distill: better-sqlite3 is now built for ${runtime}.\n`)
} catch (err) {
  const message = err instanceof NativeBuildError ? err.message : (err?.stack ?? String(err))
  process.stderr.write(
    `Distill: cannot prepare better-sqlite3 for ${runtime === 'node' ? 'Node.js' : 'Electron'}.\n${message}\n`
  )
  process.exit(1)
}
