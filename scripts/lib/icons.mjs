// The app's icon, drawn in plain JavaScript (no image library): the sidebar's LogoMark
// (src/renderer/src/components/icons.tsx: three narrowing bars over a dot) in white on a rounded
// square of the accent colour, encoded as PNG, ICO (Windows) and ICNS (macOS).
import { deflateSync } from 'node:zlib'

/** The square sizes written as PNG for Linux (resources/icons/NxN.png) and packed into the ICO and ICNS. */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
/** ICNS entry types holding PNG data, by pixel size (ic11–ic14 are the @2x variants). */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['icp6', 64],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
  ['ic10', 1024]
]

const ACCENT = [0x4f, 0x46, 0xe5] // --accent (light) in src/renderer/src/styles.css
const MARK = [0xff, 0xff, 0xff]

/** Signed distance from (px, py) to a rounded rectangle (negative inside). */
function roundedRectDistance(px, py, { x, y, w, h, r }) {
  const cx = x + w / 2
  const cy = y + h / 2
  const qx = Math.abs(px - cx) - (w / 2 - r)
  const qy = Math.abs(py - cy) - (h / 2 - r)
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0))
  return outside + Math.min(Math.max(qx, qy), 0) - r
}

/**
 * The icon's shapes in a 24×24 design space (the logo's own viewBox), placed on a rounded square
 * with the margin macOS icons keep (the square is ~80% of the canvas).
 */
function shapes() {
  const plate = { x: 2.4, y: 2.4, w: 19.2, h: 19.2, r: 4.3, color: ACCENT, alpha: 1 }
  // The logo's 24-unit geometry, scaled to 62% of the canvas around its centre.
  const k = 0.62
  const at = (v) => 12 + (v - 12) * k
  const bar = (x, y, w, alpha) => ({ x: at(x), y: at(y), w: w * k, h: 3.2 * k, r: 1.6 * k, color: MARK, alpha })
  return [
    plate,
    bar(2, 3, 20, 0.35),
    bar(5, 8.4, 14, 0.6),
    bar(8, 13.8, 8, 0.85),
    // The dot: a rounded rectangle whose radius is half its side.
    { x: at(12 - 1.9), y: at(20.6 - 1.9), w: 3.8 * k, h: 3.8 * k, r: 1.9 * k, color: MARK, alpha: 1 }
  ]
}

/** Renders the icon at `size`×`size` as straight (non-premultiplied) RGBA bytes. */
export function renderIcon(size) {
  const rgba = new Uint8Array(size * size * 4)
  const scale = size / 24
  const layers = shapes()
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Pixel centre in design units; coverage from the distance, one pixel of antialiasing.
      const px = (x + 0.5) / scale
      const py = (y + 0.5) / scale
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (const shape of layers) {
        const coverage = Math.min(1, Math.max(0, 0.5 - roundedRectDistance(px, py, shape) * scale))
        const sa = coverage * shape.alpha
        if (sa === 0) continue
        const outA = sa + a * (1 - sa)
        r = (shape.color[0] * sa + r * a * (1 - sa)) / outA
        g = (shape.color[1] * sa + g * a * (1 - sa)) / outA
        b = (shape.color[2] * sa + b * a * (1 - sa)) / outA
        a = outA
      }
      const i = (y * size + x) * 4
      rgba[i] = Math.round(r)
      rgba[i + 1] = Math.round(g)
      rgba[i + 2] = Math.round(b)
      rgba[i + 3] = Math.round(a * 255)
    }
  }
  return rgba
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(bytes) {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The scanlines of an RGBA image, each with filter byte 0 (what a PNG's IDAT holds, inflated). */
export function scanlines(rgba, width, height) {
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1)
  }
  return raw
}

/** An 8-bit RGBA PNG. */
export function encodePng(rgba, width, height) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 6 // RGBA
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(scanlines(rgba, width, height), { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
  ])
}

/** A 32-bit BMP image as an ICO entry holds it: BITMAPINFOHEADER, bottom-up BGRA, then the AND mask. */
function icoBitmap(rgba, size) {
  const header = Buffer.alloc(40)
  header.writeUInt32LE(40, 0)
  header.writeInt32LE(size, 4)
  header.writeInt32LE(size * 2, 8) // colour rows plus mask rows
  header.writeUInt16LE(1, 12)
  header.writeUInt16LE(32, 14)
  header.writeUInt32LE(size * size * 4, 20)
  const pixels = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = ((size - 1 - y) * size + x) * 4
      const to = (y * size + x) * 4
      pixels[to] = rgba[from + 2]
      pixels[to + 1] = rgba[from + 1]
      pixels[to + 2] = rgba[from]
      pixels[to + 3] = rgba[from + 3]
    }
  }
  const maskRow = Math.ceil(size / 32) * 4
  const mask = Buffer.alloc(maskRow * size) // all zero: the alpha channel decides
  return Buffer.concat([header, pixels, mask])
}

/** A Windows ICO: bitmaps below 256 px (what every Windows tool and NSIS read), PNG at 256. */
export function encodeIco(images) {
  const dir = Buffer.alloc(6)
  dir.writeUInt16LE(1, 2)
  dir.writeUInt16LE(images.length, 4)
  const entries = []
  const bodies = []
  let offset = 6 + 16 * images.length
  for (const { size, rgba } of images) {
    const body = size >= 256 ? encodePng(rgba, size, size) : icoBitmap(rgba, size)
    const entry = Buffer.alloc(16)
    entry[0] = size >= 256 ? 0 : size
    entry[1] = size >= 256 ? 0 : size
    entry.writeUInt16LE(1, 4) // planes
    entry.writeUInt16LE(32, 6) // bits per pixel
    entry.writeUInt32LE(body.length, 8)
    entry.writeUInt32LE(offset, 12)
    offset += body.length
    entries.push(entry)
    bodies.push(body)
  }
  return Buffer.concat([dir, ...entries, ...bodies])
}

/** A macOS ICNS whose entries are PNGs. */
export function encodeIcns(pngBySize) {
  const parts = ICNS_TYPES.map(([type, size]) => {
    const png = pngBySize.get(size)
    const head = Buffer.alloc(8)
    head.write(type, 0, 'latin1')
    head.writeUInt32BE(png.length + 8, 4)
    return Buffer.concat([head, png])
  })
  const body = Buffer.concat(parts)
  const head = Buffer.alloc(8)
  head.write('icns', 0, 'latin1')
  head.writeUInt32BE(body.length + 8, 4)
  return Buffer.concat([head, body])
}

/** Every file under resources/, by path relative to it. */
export function iconFiles() {
  const rendered = new Map(PNG_SIZES.map((size) => [size, renderIcon(size)]))
  const pngs = new Map(PNG_SIZES.map((size) => [size, encodePng(rendered.get(size), size, size)]))
  const files = new Map()
  for (const size of PNG_SIZES) files.set(`icons/${size}x${size}.png`, pngs.get(size))
  files.set('icon.png', pngs.get(1024))
  files.set('icon.ico', encodeIco(ICO_SIZES.map((size) => ({ size, rgba: rendered.get(size) }))))
  files.set('icon.icns', encodeIcns(pngs))
  return files
}
