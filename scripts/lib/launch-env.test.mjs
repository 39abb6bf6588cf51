import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import {
  displayProblem,
  exitCodeFor,
  firstErrorLine,
  installElectron,
  locateElectron,
  splitStartArgs,
  userProblem
} from './launch-env.mjs'

const dirs = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function fakeRoot({ pathTxt, binary } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'distill-launch-'))
  dirs.push(root)
  const pkg = join(root, 'node_modules', 'electron')
  mkdirSync(join(pkg, 'dist'), { recursive: true })
  writeFileSync(join(pkg, 'package.json'), '{"name":"electron","version":"41.0.0"}')
  if (pathTxt) writeFileSync(join(pkg, 'path.txt'), pathTxt)
  if (binary) writeFileSync(join(pkg, 'dist', binary), '')
  return root
}

describe('displayProblem', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY on Linux only', () => {
    assert.match(displayProblem('linux', {}), /no display/)
    assert.match(displayProblem('linux', { DISPLAY: ' ' }), /no display/)
    assert.equal(displayProblem('linux', { DISPLAY: ':0' }), null)
    assert.equal(displayProblem('linux', { WAYLAND_DISPLAY: 'wayland-0' }), null)
    assert.equal(displayProblem('darwin', {}), null)
    assert.equal(displayProblem('win32', {}), null)
  })
})

describe('userProblem', () => {
  it('refuses root on Linux only', () => {
    assert.match(userProblem('linux', 0), /root/)
    assert.equal(userProblem('linux', 1000), null)
    assert.equal(userProblem('darwin', 0), null)
    assert.equal(userProblem('win32', undefined), null)
  })
})

describe('locateElectron', () => {
  it('reports a package without a downloaded binary', () => {
    const result = locateElectron(fakeRoot(), {})
    assert.deepEqual(result, { ok: false, reason: 'the Electron binary has not been downloaded' })
  })

  it('reports path.txt pointing at a missing file', () => {
    const result = locateElectron(fakeRoot({ pathTxt: 'electron' }), {})
    assert.equal(result.ok, false)
    assert.match(result.reason, /missing/)
  })

  it('finds dist/<path.txt>', () => {
    const root = fakeRoot({ pathTxt: 'electron', binary: 'electron' })
    assert.deepEqual(locateElectron(root, {}), {
      ok: true,
      path: join(root, 'node_modules', 'electron', 'dist', 'electron')
    })
  })

  it('reports a missing electron package', () => {
    const root = mkdtempSync(join(tmpdir(), 'distill-launch-'))
    dirs.push(root)
    assert.deepEqual(locateElectron(root, {}), { ok: false, reason: 'the electron package is not installed' })
  })
})

describe('installElectron', () => {
  it('respects ELECTRON_SKIP_BINARY_DOWNLOAD and a missing install script', () => {
    const root = fakeRoot()
    assert.equal(installElectron(root).ok, false)
    writeFileSync(join(root, 'node_modules', 'electron', 'install.js'), 'process.exit(0)')
    assert.deepEqual(installElectron(root, { env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } }), {
      ok: false,
      detail: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set'
    })
  })

  it('reports the error line of a failing download, and a timeout', () => {
    const root = fakeRoot()
    const script = join(root, 'node_modules', 'electron', 'install.js')
    writeFileSync(script, "console.error('TypeError: fetch failed\\n    at x (y.js:1:1)'); process.exit(1)")
    assert.deepEqual(installElectron(root, { env: {} }), { ok: false, detail: 'TypeError: fetch failed' })
    writeFileSync(script, 'setTimeout(() => {}, 10000)')
    assert.match(installElectron(root, { env: {}, timeoutMs: 300 }).detail, /longer than/)
  })
})

describe('small helpers', () => {
  it('firstErrorLine picks the error out of a stack', () => {
    assert.equal(firstErrorLine('\nTypeError: fetch failed\n    at a\n'), 'TypeError: fetch failed')
    assert.equal(firstErrorLine('something odd'), 'something odd')
    assert.equal(firstErrorLine(''), '')
  })

  it('splitStartArgs keeps --browser for the launcher and forwards the rest', () => {
    assert.deepEqual(splitStartArgs(['--db', 'x.db', '--browser', '--port', '3000']), {
      browser: true,
      forward: ['--db', 'x.db', '--port', '3000']
    })
  })

  it('exitCodeFor follows the shell convention for signals', () => {
    assert.equal(exitCodeFor(0, null), 0)
    assert.equal(exitCodeFor(3, null), 3)
    assert.equal(exitCodeFor(null, 'SIGTERM', { SIGTERM: 15 }), 143)
    assert.equal(exitCodeFor(null, null), 1)
  })
})
