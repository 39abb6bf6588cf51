import { IMAGE_TYPES } from '../../shared/domain/attachments'

export interface Sniffed {
  /** The type the bytes are, whatever the file's name or the browser said. */
  mediaType: string
  width?: number
  height?: number
}

function ascii(bytes: Uint8Array, from: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(from, from + length))
}

/** PNG, GIF, WebP and JPEG by their signatures, with their pixel size (for what providers charge). */
export function sniffImage(bytes: Uint8Array): Sniffed | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length >= 24 && bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') {
    return { mediaType: 'image/png', width: view.getUint32(16), height: view.getUint32(20) }
  }
  if (bytes.length >= 10 && ascii(bytes, 0, 4) === 'GIF8') {
    return { mediaType: 'image/gif', width: view.getUint16(6, true), height: view.getUint16(8, true) }
  }
  if (bytes.length >= 30 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    const chunk = ascii(bytes, 12, 4)
    if (chunk === 'VP8X')
      return {
        mediaType: 'image/webp',
        width: 1 + (view.getUint32(24, true) & 0xffffff),
        height: 1 + (view.getUint32(27, true) & 0xffffff)
      }
    if (chunk === 'VP8L') {
      const bits = view.getUint32(21, true)
      return { mediaType: 'image/webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) }
    }
    return {
      mediaType: 'image/webp',
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff
    }
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the segments to the first start-of-frame marker, which holds the size.
    let at = 2
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return { mediaType: 'image/jpeg' }
      const marker = bytes[at + 1]!
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { mediaType: 'image/jpeg', height: view.getUint16(at + 5), width: view.getUint16(at + 7) }
      }
      at += 2 + view.getUint16(at + 2)
    }
    return { mediaType: 'image/jpeg' }
  }
  return null
}

export function isImageType(mediaType: string): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(mediaType)
}

export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-'
}

/** Text is UTF-8 without NUL bytes; anything else is a binary file under a text name. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/** Bytes decoded per turn of the event loop: a 5 MB file at once held it for 15-50 ms. */
const DECODE_SLICE = 512 * 1024

/** decodeText for an upload, a slice per turn of the event loop. */
export async function decodeTextInSlices(bytes: Uint8Array): Promise<string | null> {
  if (bytes.length <= DECODE_SLICE) return decodeText(bytes)
  if (bytes.includes(0)) return null
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const parts: string[] = []
  try {
    for (let at = 0; at < bytes.length; at += DECODE_SLICE) {
      await new Promise((resolve) => setImmediate(resolve))
      parts.push(decoder.decode(bytes.subarray(at, at + DECODE_SLICE), { stream: at + DECODE_SLICE < bytes.length }))
    }
  } catch {
    return null
  }
  return parts.join('')
}
