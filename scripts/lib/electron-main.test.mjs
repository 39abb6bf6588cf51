// Smoke test of the BUILT Electron entry (out/main/index.js) with a stand-in 'electron' module:
// the real argv handling, createApp, IPC adapter, window options and startup error dialog, in
// plain Node. Skipped when the app is not built (`npm run build`).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, it } from 'node:test'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..', '..')
const built = existsSync(join(root, 'out', 'main', 'index.js'))
const dirs = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'distill-main-smoke-'))
  dirs.push(dir)
  return dir
}

function runMain(scenario, args, env = {}) {
  const userData = tempDir()
  const result = spawnSync(process.execPath, [join(here, 'fake-electron-harness.cjs'), scenario, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FAKE_USER_DATA: userData, DISTILL_DB: '', ...env },
    timeout: 30_000
  })
  const line = result.stdout.trim().split('\n').at(-1)
  assert.ok(line, `no report; stderr:\n${result.stderr}`)
  const report = JSON.parse(line)
  assert.equal(report.harnessError, undefined, report.harnessError)
  return { report, userData, stderr: result.stderr }
}

describe(
  'the built Electron entry, with a stand-in electron module',
  { skip: built ? false : 'out/main/index.js is not built' },
  () => {
    it('opens the database from --db, serves our window over IPC and refuses others', () => {
      const db = join(tempDir(), 'chats.db')
      const { report } = runMain('normal', ['--db', db])

      assert.match(report.setPaths.userData ?? '', /profiles[/\\][0-9a-f]{16}$/)
      assert.equal(report.sandboxEnabled, true)
      assert.deepEqual(report.handlers, ['distill:rpc'])
      assert.equal(report.windows.length, 1)

      const { options, loaded, shown } = report.windows[0]
      assert.deepEqual(
        {
          contextIsolation: options.webPreferences.contextIsolation,
          sandbox: options.webPreferences.sandbox,
          nodeIntegration: options.webPreferences.nodeIntegration,
          webSecurity: options.webPreferences.webSecurity
        },
        { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true }
      )
      assert.equal(options.title, 'Distill')
      assert.equal(options.show, false)
      assert.equal(shown, true, 'shown on ready-to-show')
      assert.equal(loaded, join(root, 'out', 'renderer', 'index.html'))
      assert.ok(existsSync(loaded), 'the renderer it loads exists')
      assert.equal(report.preload, join(root, 'out', 'preload', 'index.js'))
      assert.ok(existsSync(report.preload), 'the preload it names exists')

      assert.equal(report.info.ok, true)
      assert.equal(report.info.data.mode, 'electron')
      assert.equal(report.info.data.databaseFile, db)
      assert.equal(report.created.ok, true)
      assert.deepEqual(
        report.sent.filter((s) => s.event === 'sessions.changed').map((s) => s.channel),
        ['distill:event']
      )
      assert.equal(report.fromIframe.error.code, 'unauthorized')
      assert.equal(report.fromStranger.error.code, 'unauthorized')
      assert.deepEqual(report.openHandler, { action: 'deny' })
      assert.match(report.csp, /script-src 'self'/)
      assert.equal(report.permissionHandlers, 2)

      assert.ok(report.quit >= 1, 'closing the last window quits (not on macOS)')
      assert.deepEqual(report.handlersAfterQuit, [], 'the IPC handler is removed on quit')
      assert.equal(report.errorBoxes.length, 0)
    })

    it('defaults to userData/distill.db and honours DISTILL_DB', () => {
      const { report, userData } = runMain('normal', [])
      assert.equal(report.info.data.databaseFile, join(userData, 'userData', 'distill.db'))
      assert.equal(report.setPaths.userData, undefined)

      const fromEnv = join(tempDir(), 'env.db')
      const second = runMain('normal', [], { DISTILL_DB: fromEnv })
      assert.equal(second.report.info.data.databaseFile, fromEnv)
    })

    it('shows an error box for a file that is not a Distill database, quits, and leaves the file alone', () => {
      const db = join(tempDir(), 'not-a-db.db')
      const bytes = 'this is not sqlite '.repeat(300)
      writeFileSync(db, bytes)
      const { report } = runMain('normal', ['--db', db])
      assert.equal(report.windows.length, 0)
      assert.equal(report.errorBoxes.length, 1)
      assert.equal(report.errorBoxes[0].title, 'Distill cannot start')
      assert.match(report.errorBoxes[0].message, /not a Distill database|damaged/)
      assert.match(report.errorBoxes[0].message, /left untouched/)
      assert.equal(report.exitCode, 1)
      assert.equal(readFileSync(db, 'utf8'), bytes)
    })

    it('a second instance quits without opening anything', () => {
      const { report } = runMain('second-instance', ['--db', join(tempDir(), 'x.db')])
      assert.equal(report.quit, 1)
      assert.equal(report.windows.length, 0)
      assert.deepEqual(report.handlers, [])
    })
  }
)
