import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decodeBase64InSlices } from './decode-base64'

describe('decodeBase64InSlices', () => {
  it('gives the bytes Buffer.from gives, small or large, padded or not', async () => {
    for (const size of [0, 1, 2, 3, 1000, 786_431, 786_432, 786_433, 5 * 1024 * 1024 - 7]) {
      const bytes = randomBytes(size)
      expect((await decodeBase64InSlices(bytes.toString('base64'))).equals(bytes)).toBe(true)
    }
  })

  it('reads base64 with line breaks or stray characters as Buffer.from does', async () => {
    const text = randomBytes(2_000_000).toString('base64')
    for (const data of [text.replace(/.{76}/g, '$&\r\n'), `${text.slice(0, 5)}!${text.slice(5)}`]) {
      expect((await decodeBase64InSlices(data)).equals(Buffer.from(data, 'base64'))).toBe(true)
    }
  })
})
