import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, it } from 'node:test'
import { buildStatus } from './build-state.mjs'

const dirs = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function project(files) {
  const root = mkdtempSync(join(tmpdir(), 'distill-build-state-'))
  dirs.push(root)
  for (const [file, seconds] of Object.entries(files)) {
    const path = join(root, file)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, '')
    utimesSync(path, seconds, seconds)
  }
  return root
}

const outputs = ['out/main/index.js', 'out/renderer/index.html']
const inputs = ['src', 'package.json']

describe('buildStatus', () => {
  it('needs a build when an output is missing', () => {
    const root = project({ 'src/a.ts': 100, 'out/main/index.js': 200 })
    assert.deepEqual(buildStatus(root, { outputs, inputs }), {
      needed: true,
      reason: 'out/renderer/index.html is missing'
    })
  })

  it('is up to date when every source is older than the oldest output', () => {
    const root = project({
      'src/a.ts': 100,
      'package.json': 100,
      'out/main/index.js': 200,
      'out/renderer/index.html': 300
    })
    assert.equal(buildStatus(root, { outputs, inputs }).needed, false)
  })

  it('needs a build when a nested source is newer, and names it', () => {
    const root = project({ 'src/deep/b.ts': 250, 'out/main/index.js': 200, 'out/renderer/index.html': 300 })
    const status = buildStatus(root, { outputs, inputs })
    assert.equal(status.needed, true)
    assert.match(status.reason, /src[/\\]deep[/\\]b\.ts changed/)
  })

  it('ignores tests, benchmarks and dot folders', () => {
    const root = project({
      'src/a.test.ts': 900,
      'src/b.bench.ts': 900,
      'src/.cache/x.ts': 900,
      'src/ok.ts': 100,
      'out/main/index.js': 200,
      'out/renderer/index.html': 200
    })
    assert.equal(buildStatus(root, { outputs, inputs }).needed, false)
  })

  it('watches single files such as package.json', () => {
    const root = project({ 'package.json': 500, 'out/main/index.js': 200, 'out/renderer/index.html': 200 })
    assert.equal(buildStatus(root, { outputs, inputs }).needed, true)
  })
})
