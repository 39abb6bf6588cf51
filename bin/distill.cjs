#!/usr/bin/env node
// The `distill` command: (re)builds the app when the build is missing or older than its sources,
// makes better-sqlite3 loadable by this Node, then runs the bundled CLI in this process.
const { spawnSync } = require('node:child_process')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

const root = join(__dirname, '..')
const say = (line) => process.stderr.write(`distill: ${line}\n`)
const script = (path) => import(pathToFileURL(join(root, path)).href)

async function run() {
  const { buildStatus } = await script('scripts/lib/build-state.mjs')
  const status = buildStatus(root)
  if (status.needed) {
    say(`building the app first (${status.reason})…`)
    const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
    const built = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    if (built.status !== 0) {
      say('the build failed; run `npm run build` to see why.')
      process.exit(1)
    }
  }
  // The desktop app may have left a build of better-sqlite3 for Electron in place.
  const { markerMatches, nativePaths, readMarker } = await script('scripts/lib/native-abi.mjs')
  if (!markerMatches(readMarker(nativePaths(root)), 'node', process.versions.modules)) {
    const ensured = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-native.mjs'), 'node'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit']
    })
    if (ensured.status !== 0) process.exit(1)
  }
  // The bundle only runs by itself when it is the main module; here it is required.
  await require(join(root, 'out', 'main', 'cli.js')).main(process.argv)
}

run().catch((err) => {
  say(err && err.message ? err.message : String(err))
  process.exit(1)
})
