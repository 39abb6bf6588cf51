import { readFileSync } from 'node:fs'

const BASE64 = new Int16Array(128).fill(-1)
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  BASE64[c.charCodeAt(0)] = i
const SPACE = 32
const NEWLINE = 10
const PAD = 61

/**
 * An encoding's rank table, read from its `.tiktoken` file (one "base64-token rank" per line) in the
 * form gpt-tokenizer's rank modules export: each token as a string where its bytes are UTF-8, as its
 * bytes where not (or where they start with a byte-order mark, which a string would lose).
 *
 * Why not require the module: it is a 2.4 MB array literal, and parsing it kept ~25 MB more resident
 * in every thread that loads it (measured in a worker: peak +81 MB against +55 MB read this way) for
 * the same table in the same ~70 ms.
 */
export function readTiktokenRanks(file: string): Array<string | number[]> {
  const buf = readFileSync(file)
  const strict = new TextDecoder('utf-8', { fatal: true })
  const ranks: Array<string | number[]> = []
  let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(256)
  let i = 0
  while (i < buf.length) {
    let n = 0
    let acc = 0
    let bits = 0
    let ascii = true
    for (; i < buf.length && buf[i] !== SPACE; i++) {
      const c = buf[i]!
      if (c === PAD) continue
      const digit = c < 128 ? BASE64[c]! : -1
      if (digit < 0) throw new Error(`${file}: not a tiktoken rank file (byte ${i})`)
      acc = ((acc << 6) | digit) & 0xffffff
      bits += 6
      if (bits >= 8) {
        bits -= 8
        const b = (acc >> bits) & 0xff
        if (n === bytes.length) bytes = growTo(bytes, n * 2)
        bytes[n++] = b
        if (b >= 0x80) ascii = false
      }
    }
    i++ // the space
    let rank = 0
    for (; i < buf.length && buf[i] !== NEWLINE; i++) rank = rank * 10 + (buf[i]! - 48)
    i++ // the newline
    if (n === 0) continue
    const token = bytes.subarray(0, n)
    ranks[rank] = ascii ? String.fromCharCode(...token) : utf8OrBytes(token, strict)
  }
  return ranks
}

function utf8OrBytes(token: Uint8Array, strict: TextDecoder): string | number[] {
  // The decoder drops a leading byte-order mark; such a token stays bytes.
  if (token[0] === 0xef && token[1] === 0xbb && token[2] === 0xbf) return Array.from(token)
  try {
    return strict.decode(token)
  } catch {
    return Array.from(token)
  }
}

function growTo(bytes: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(size)
  grown.set(bytes)
  return grown
}
