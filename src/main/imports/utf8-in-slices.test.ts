import { describe, expect, it } from 'vitest'
import { utf8InSlices } from './utf8-in-slices'

describe('utf8InSlices', () => {
  it('gives the bytes Buffer.from gives, a pair of surrogates never split, in a buffer of its own', async () => {
    const texts = [
      '',
      'héllo 👍',
      'a'.repeat(5_000_000),
      `${'a'.repeat(2 * 1024 * 1024 - 1)}👍${'é🇫🇷'.repeat(900_000)}`
    ]
    for (const text of texts) {
      const bytes = await utf8InSlices(text)
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true)
      if (text.length > 3_000_000) expect(bytes.byteLength).toBe(bytes.buffer.byteLength)
    }
  })
})
