import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { ensureNative, NativeBuildError } from './ensure.mjs'
import { builtAbiFromError, isAbiProblem, nativePaths, readMarker, writeMarker } from './native-abi.mjs'

const NODE_ABI = process.versions.modules
const ELECTRON_ABI = '145'
const dirs = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A project whose "binary" is a text file naming what it was built for. */
function setup(content = `node-${NODE_ABI}`) {
  const root = mkdtempSync(join(tmpdir(), 'distill-native-'))
  dirs.push(root)
  const paths = nativePaths(root)
  mkdirSync(join(paths.moduleDir, 'build', 'Release'), { recursive: true })
  mkdirSync(paths.electronDir, { recursive: true })
  writeFileSync(join(paths.moduleDir, 'package.json'), '{"version":"12.0.0"}')
  writeFileSync(join(paths.electronDir, 'package.json'), '{"version":"41.0.0"}')
  writeFileSync(paths.binary, content)
  const probes = []
  const probe = () => {
    const what = existsSync(paths.binary) ? readFileSync(paths.binary, 'utf8') : 'missing'
    probes.push(what)
    if (what === `node-${NODE_ABI}`) return { ok: true }
    if (what.startsWith('electron-')) {
      const abi = what.slice('electron-'.length)
      return { ok: false, abiProblem: true, builtAbi: abi, message: `compiled ... using NODE_MODULE_VERSION ${abi}.` }
    }
    if (what === 'broken')
      return { ok: false, abiProblem: false, builtAbi: null, message: 'SyntaxError in database.js' }
    return { ok: false, abiProblem: true, builtAbi: null, message: 'Could not locate the bindings file' }
  }
  const rebuilds = []
  const rebuildTo =
    (content, ok = true) =>
    (runtime, abi) => {
      rebuilds.push([runtime, abi])
      // node-gyp deletes the build folder first
      rmSync(join(paths.moduleDir, 'build'), { recursive: true, force: true })
      if (ok) {
        mkdirSync(join(paths.moduleDir, 'build', 'Release'), { recursive: true })
        writeFileSync(paths.binary, content)
      }
      return { ok, output: ok ? 'built' : 'gyp ERR! could not download headers' }
    }
  const notices = []
  const run = (runtime, rebuild = rebuildTo('unexpected')) =>
    ensureNative({
      runtime,
      paths,
      targetAbi: runtime === 'node' ? NODE_ABI : ELECTRON_ABI,
      rebuild,
      notice: (l) => notices.push(l),
      probe
    })
  const binary = () => readFileSync(paths.binary, 'utf8')
  return { paths, run, probes, rebuilds, rebuildTo, notices, binary }
}

describe('ABI detection helpers', () => {
  it("reads the compiled ABI out of Node's error", () => {
    const message =
      "Error: The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 145. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling"
    assert.equal(builtAbiFromError(message), '145')
    assert.equal(isAbiProblem(message), true)
    assert.equal(builtAbiFromError('Could not locate the bindings file.'), null)
    assert.equal(isAbiProblem('Could not locate the bindings file. Tried: ...'), true)
    assert.equal(isAbiProblem('SyntaxError: Unexpected token'), false)
  })

  it('trusts a marker only while the binary is unchanged', () => {
    const { paths } = setup()
    writeMarker(paths, 'node', NODE_ABI)
    assert.equal(readMarker(paths)?.runtime, 'node')
    writeFileSync(paths.binary, 'something else entirely')
    assert.equal(readMarker(paths), null)
    writeMarker(paths, 'node', NODE_ABI)
    utimesSync(paths.binary, 1, 1)
    assert.equal(readMarker(paths), null)
  })
})

describe('ensureNative', () => {
  it('does nothing, not even a probe, when the marker already matches', () => {
    const t = setup()
    writeMarker(t.paths, 'node', NODE_ABI)
    assert.deepEqual(t.run('node'), { action: 'none' })
    assert.deepEqual(t.probes, [])
  })

  it('marks a working build it finds without a marker', () => {
    const t = setup()
    assert.deepEqual(t.run('node'), { action: 'marked' })
    const marker = readMarker(t.paths)
    assert.equal(marker?.runtime, 'node')
    assert.equal(marker?.abi, NODE_ABI)
    assert.deepEqual(t.rebuilds, [])
  })

  it('recognises an Electron build by the ABI Node reports', () => {
    const t = setup(`electron-${ELECTRON_ABI}`)
    assert.deepEqual(t.run('electron'), { action: 'marked' })
    assert.equal(readMarker(t.paths)?.electron, '41.0.0')
  })

  it('rebuilds for Electron, then switches both ways from the cache without rebuilding', () => {
    const t = setup()
    assert.deepEqual(t.run('electron', t.rebuildTo(`electron-${ELECTRON_ABI}`)), { action: 'rebuilt' })
    assert.deepEqual(t.rebuilds, [['electron', ELECTRON_ABI]])
    assert.equal(t.binary(), `electron-${ELECTRON_ABI}`)
    assert.match(t.notices[0], /rebuilding better-sqlite3 for Electron 41\.0\.0/)

    assert.deepEqual(t.run('node'), { action: 'restored' })
    assert.equal(t.binary(), `node-${NODE_ABI}`)
    assert.deepEqual(t.run('electron'), { action: 'restored' })
    assert.equal(t.binary(), `electron-${ELECTRON_ABI}`)
    assert.deepEqual(t.run('electron'), { action: 'none' })
    assert.equal(t.rebuilds.length, 1)
  })

  it('rebuilds for Node when the binary is missing and nothing is cached', () => {
    const t = setup('garbage')
    assert.deepEqual(t.run('node', t.rebuildTo(`node-${NODE_ABI}`)), { action: 'rebuilt' })
    assert.deepEqual(t.rebuilds, [['node', NODE_ABI]])
  })

  it('puts the previous build back when the rebuild fails', () => {
    const t = setup()
    assert.throws(
      () => t.run('electron', t.rebuildTo('', false)),
      (err) => {
        assert.ok(err instanceof NativeBuildError)
        assert.match(err.message, /could not download headers/)
        return true
      }
    )
    assert.equal(t.binary(), `node-${NODE_ABI}`)
    assert.equal(readMarker(t.paths)?.runtime, 'node')
  })

  it('fails when the rebuilt binary is still not usable', () => {
    const t = setup()
    assert.throws(() => t.run('electron', t.rebuildTo(`node-${NODE_ABI}`)), /still not usable/)
  })

  it('does not rebuild over a load error that has nothing to do with the ABI', () => {
    const t = setup('broken')
    assert.throws(() => t.run('node', t.rebuildTo(`node-${NODE_ABI}`)), /not because of its build/)
    assert.deepEqual(t.rebuilds, [])
  })
})
