import fc from 'fast-check'
import { get_encoding, type Tiktoken } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'
import { countTextTokens, freeEncoders, type EncodingName } from './encoders'
import { MAX_RUN, textSegments } from './text-segments'

const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base']
const reference = new Map<EncodingName, Tiktoken>(ENCODINGS.map((e) => [e, get_encoding(e)]))
const expected = (text: string, e: EncodingName) => reference.get(e)!.encode_ordinary(text).length

afterAll(() => {
  for (const enc of reference.values()) enc.free()
  freeEncoders()
})

// Text as people write it: words, numbers, punctuation, code, every kind of whitespace and script.
const tricky = fc.constantFrom(
  ...['a', 'B', 'é', 'ß', '中', 'あ', 'ш', '1', '42', '½', '𝟙', '😀', '.', ',', "'s", "'T", '/', '-', '"', '{', '}', ':', ' ', '  ', '\n', '\n\n', '\r\n', '\t', '\u0085', '\u00a0', '\u2003', '\u3000', '\ufeff', 'hello', 'World', '2024', 'x=1;', 'https://a.b/c']
)
const ordinary = fc.oneof(
  fc.array(tricky, { maxLength: 300 }).map((xs) => xs.join('')),
  fc.lorem({ maxCount: 200, mode: 'sentences' }),
  fc.string({ unit: 'grapheme', maxLength: 400 }),
  fc.string({ unit: 'binary', maxLength: 400 })
)

describe.each(ENCODINGS)('%s: counting in segments', (encoding) => {
  it('gives the count of the whole text wherever the segments end (no run cut)', () => {
    fc.assert(
      fc.property(ordinary, fc.integer({ min: 1, max: 40 }), (text, size) => {
        const segments = textSegments(text, 10_000, size)
        expect(segments.join('')).toBe(text)
        expect(segments.reduce((s, t) => s + expected(t, encoding), 0)).toBe(expected(text, encoding))
      }),
      { numRuns: 3000 }
    )
  })

  it('counts long ordinary text exactly, the way the whole text counts', () => {
    fc.assert(
      fc.property(fc.array(ordinary, { minLength: 5, maxLength: 30 }), (parts) => {
        const text = parts.join(' ')
        expect(countTextTokens(text, encoding)).toBe(expected(text, encoding))
      }),
      { numRuns: 200 }
    )
  })

  it('counts a run without spaces within a token per cut, in linear time', () => {
    for (const c of ['b', 'A', '!', ' ', '中', '1', 'xyz', 'aB']) {
      const text = c.repeat(Math.ceil(4000 / c.length))
      const cuts = Math.ceil(text.length / MAX_RUN)
      expect(Math.abs(countTextTokens(text, encoding) - expected(text, encoding)), c).toBeLessThanOrEqual(cuts)
    }
    const started = performance.now()
    const n = countTextTokens('b'.repeat(1_000_000) + 'q'.repeat(1_000_000), encoding)
    expect(n).toBeGreaterThan(100_000)
    expect(performance.now() - started).toBeLessThan(3000) // was minutes: 1 M characters took 447 s
  })
})

describe('textSegments', () => {
  it('never splits a surrogate pair or a CR LF, and keeps every character', () => {
    const text = '😀'.repeat(1000) + '\r\n'.repeat(1000)
    const segments = textSegments(text, 7, 7)
    expect(segments.join('')).toBe(text)
    for (const s of segments) {
      expect(s.charCodeAt(0) & 0xfc00).not.toBe(0xdc00)
      expect(s.startsWith('\n') && !s.startsWith('\n\r')).toBe(false)
    }
  })
})
