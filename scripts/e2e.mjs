// Runs the Playwright specs against browser mode in Debian's Chromium. Without a Chromium the
// specs are skipped loudly, except under CI, where that is a failure.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildStatus } from './lib/build-state.mjs'

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)
const chromium = candidates.find((p) => existsSync(p))
if (!chromium) {
  const banner = '!'.repeat(78)
  console.error(
    `${banner}\n  E2E SKIPPED: no Chromium found (set CHROMIUM_PATH or apt-get install -y chromium).\n${banner}`
  )
  process.exit(process.env.CI ? 1 : 0)
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
run('node', ['scripts/ensure-native.mjs', 'node'])
// `npm test` has just built; a second build would only cost time.
if (buildStatus(resolve(dirname(fileURLToPath(import.meta.url)), '..')).needed) run('npx', ['electron-vite', 'build'])
run('npx', ['playwright', 'test', ...process.argv.slice(2)])
