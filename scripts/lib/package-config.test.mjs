// The desktop package's configuration (electron-builder.yml) against electron-builder's own schema
// and checks, and the icons it points at (resources/, drawn by scripts/make-icons.mjs).
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { inflateSync } from 'node:zlib'
import { ICNS_TYPES, ICO_SIZES, PNG_SIGNATURE, PNG_SIZES, renderIcon, scanlines } from './icons.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const require = createRequire(join(root, 'package.json'))
const resources = join(root, 'resources')

/** electron-builder's own loader and validator (app-builder-lib/scheme.json, through its ajv). */
async function loadConfig() {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js')
  const config = await getConfig(root, null, null)
  return { config, validate: (c) => validateConfiguration(c, { isEnabled: false, add() {} }) }
}

function pngInfo(bytes) {
  assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, 'a PNG signature')
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), depth: bytes[24], colorType: bytes[25] }
}

/** The inflated IDAT of a PNG (the scanlines). */
function pngPixels(bytes) {
  const parts = []
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at)
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  return inflateSync(Buffer.concat(parts))
}

describe('electron-builder configuration', () => {
  it('is the file electron-builder loads, and passes its schema', async () => {
    const { config, validate } = await loadConfig()
    assert.equal(config.appId, 'app.distill.desktop')
    await validate(config)
  })

  it('is really checked: an unknown or mistyped option is refused', async () => {
    const { config, validate } = await loadConfig()
    await assert.rejects(validate({ ...config, nsis: { ...config.nsis, oneClik: false } }), /configuration\.nsis/)
    await assert.rejects(
      validate({ ...config, mac: { ...config.mac, target: { format: 'dmg' } } }),
      /configuration\.mac/
    )
  })

  it('builds AppImage and deb for Linux, NSIS for Windows, dmg for macOS', async () => {
    const { config } = await loadConfig()
    const names = (targets) => targets.map((t) => (typeof t === 'string' ? t : t.target))
    assert.deepEqual(names(config.linux.target), ['AppImage', 'deb'])
    assert.deepEqual(names(config.win.target), ['nsis'])
    assert.deepEqual(names(config.mac.target), ['dmg'])
  })

  it('publishes to a generic feed that electron-updater reads', async () => {
    const { config } = await loadConfig()
    assert.equal(config.publish.provider, 'generic')
    assert.match(config.publish.url, /^https:\/\//)
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    assert.ok(pkg.dependencies['electron-updater'], 'electron-updater ships with the app')
    assert.ok(pkg.devDependencies['electron-builder'], 'electron-builder is a build tool only')
    assert.match(pkg.scripts.dist, /electron-vite build && electron-builder/)
  })

  it('points at icons that exist, and ships the migrations beside out/', async () => {
    const { config } = await loadConfig()
    for (const file of [config.win.icon, config.nsis.installerIcon, config.mac.icon, config.linux.icon]) {
      assert.ok(existsSync(join(root, file)), `${file} exists`)
    }
    const files = config.files.flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.filter))
    for (const pattern of ['out/**', 'drizzle/*.sql', 'drizzle/meta/_journal.json', 'package.json']) {
      assert.ok(files.includes(pattern), pattern)
    }
  })
})

describe('icons (resources/)', () => {
  it('has a PNG of each size for Linux, RGBA and square', () => {
    for (const size of PNG_SIZES) {
      const info = pngInfo(readFileSync(join(resources, 'icons', `${size}x${size}.png`)))
      assert.deepEqual(info, { width: size, height: size, depth: 8, colorType: 6 }, `${size}x${size}.png`)
    }
    assert.deepEqual(pngInfo(readFileSync(join(resources, 'icon.png'))).width, 1024)
  })

  it('holds what scripts/make-icons.mjs draws (regenerate after changing the drawing)', () => {
    for (const size of [16, 256]) {
      const stored = pngPixels(readFileSync(join(resources, 'icons', `${size}x${size}.png`)))
      assert.ok(stored.equals(scanlines(renderIcon(size), size, size)), `${size}x${size}.png is up to date`)
    }
  })

  it('has a Windows ICO with 16–256 px images', () => {
    const ico = readFileSync(join(resources, 'icon.ico'))
    assert.equal(ico.readUInt16LE(0), 0)
    assert.equal(ico.readUInt16LE(2), 1, 'type: icon')
    const count = ico.readUInt16LE(4)
    const sizes = []
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16
      const size = ico[entry] === 0 ? 256 : ico[entry]
      const length = ico.readUInt32LE(entry + 8)
      const offset = ico.readUInt32LE(entry + 12)
      assert.ok(offset + length <= ico.length, 'the image lies inside the file')
      const body = ico.subarray(offset, offset + length)
      if (size === 256) assert.equal(pngInfo(body).width, 256)
      else {
        assert.equal(body.readUInt32LE(0), 40, 'a BITMAPINFOHEADER')
        assert.equal(body.readInt32LE(4), size)
        assert.equal(body.readUInt16LE(14), 32)
      }
      sizes.push(size)
    }
    assert.deepEqual(sizes, ICO_SIZES)
  })

  it('has a macOS ICNS up to 1024 px', () => {
    const icns = readFileSync(join(resources, 'icon.icns'))
    assert.equal(icns.toString('latin1', 0, 4), 'icns')
    assert.equal(icns.readUInt32BE(4), icns.length)
    const found = []
    for (let at = 8; at < icns.length;) {
      const type = icns.toString('latin1', at, at + 4)
      const length = icns.readUInt32BE(at + 4)
      const { width, height } = pngInfo(icns.subarray(at + 8, at + length))
      assert.equal(width, height)
      found.push([type, width])
      at += length
    }
    assert.deepEqual(found, ICNS_TYPES)
  })
})
