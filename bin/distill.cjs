#!/usr/bin/env node
// The `distill` command: builds the app once if it has not been built, then runs the bundled CLI.
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const { spawnSync } = require('node:child_process')

const root = join(__dirname, '..')
const cli = join(root, 'out', 'main', 'cli.js')
if (!existsSync(cli) || !existsSync(join(root, 'out', 'renderer', 'index.html'))) {
  process.stderr.write('distill: building the app first (npm run build)…\n')
  const built = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) {
    process.stderr.write('distill: the build failed; run `npm run build` to see why.\n')
    process.exit(1)
  }
}
require(cli)
