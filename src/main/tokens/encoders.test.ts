import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { get_encoding, type Tiktoken } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'
import { countTextTokens, freeEncoders, getEncoder, type EncodingName } from './encoders'
import { MAX_RUN, textSegments } from './text-segments'

// gpt-tokenizer replaced tiktoken's WASM encoders on the promise of identical counts: stored counts
// keep their counter ids ('tiktoken:o200k_base'), so any difference would make them silently wrong.
// tiktoken (a dev dependency) is the reference here.
const ENCODINGS: EncodingName[] = ['o200k_base', 'cl100k_base']
const reference = new Map<EncodingName, Tiktoken>(ENCODINGS.map((e) => [e, get_encoding(e)]))
const expected = (text: string, e: EncodingName) => reference.get(e)!.encode_ordinary(text).length

afterAll(() => {
  for (const enc of reference.values()) enc.free()
  freeEncoders()
})

const fixtureDir = join(__dirname, '../../../fixtures/conversations')
const fixtureTexts = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) => readFileSync(join(fixtureDir, f), 'utf8').split('\n').filter(Boolean))
  .map((line) => {
    const m = JSON.parse(line) as { content: unknown }
    return typeof m.content === 'string' ? m.content : JSON.stringify(m.content)
  })

const edgeCases = [
  'Say <|endoftext|> and <|im_start|>system<|im_end|> as text, <|fim_prefix|> too.',
  'emoji 👩‍👩‍👧‍👦 🇳🇴 flags, combining é vs é, CJK 東京タワー, Arabic مرحبا, Devanagari नमस्ते',
  ' '.repeat(300) + 'x' + '\n'.repeat(50) + '\t\t\r\n',
  '1234567890'.repeat(40),
  'a'.repeat(5000),
  'ab'.repeat(3000) + ' ' + 'Ω≈ç√∫˜µ≤≥÷'.repeat(100),
  "don't won't I'M YOU'LL they'D 's 't",
  '\u0000\u0001\u200b\ud83d', // control characters, zero-width space and a lone surrogate
  '\ufeffhello a\ufeffb', // a BOM: not whitespace to tiktoken, whitespace to JavaScript regexes
  'next\u0085line \u0085 x' // NEL: the other way round
]

describe.each(ENCODINGS)('%s counts equal tiktoken', (encoding) => {
  it(`on every fixture message (${fixtureTexts.length})`, () => {
    const diffs = fixtureTexts.filter((t) => countTextTokens(t, encoding) !== expected(t, encoding))
    expect(diffs).toEqual([])
  })

  it('on special tokens, unicode, long runs and control characters', () => {
    for (const t of edgeCases)
      expect(countTextTokens(t, encoding), JSON.stringify(t.slice(0, 40))).toBe(expected(t, encoding))
  })

  it('on arbitrary text', () => {
    // Whitespace of every kind next to letters, digits and punctuation is where split regexes differ.
    const tricky = fc.constantFrom(
      ..."aB1é😀./'s \n\r\t\u000b\u000c\u0085\u00a0\u1680\u180e\u2007\u200b\u2028\u202f\u205f\u3000\ufeff".split('')
    )
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.lorem({ maxCount: 60 }),
      fc.string({ unit: tricky, maxLength: 12 })
    )
    fc.assert(
      fc.property(text, (t) => countTextTokens(t, encoding) === expected(t, encoding)),
      { numRuns: 2000 }
    )
  })
})

describe('freeEncoders', () => {
  it('frees the encoders; the next count loads them again', () => {
    const before = getEncoder('cl100k_base')
    const n = countTextTokens('hello world', 'cl100k_base')
    freeEncoders()
    expect(() => before.count('hello')).toThrow(/freed/)
    expect(getEncoder('cl100k_base')).not.toBe(before)
    expect(countTextTokens('hello world', 'cl100k_base')).toBe(n)
  })
})

// Text as people write it: words, numbers, punctuation, code, every kind of whitespace and script.
const tricky = fc.constantFrom(
  ...[
    'a',
    'B',
    'é',
    'ß',
    '中',
    'あ',
    'ш',
    '1',
    '42',
    '½',
    '𝟙',
    '😀',
    '.',
    ',',
    "'s",
    "'T",
    '/',
    '-',
    '"',
    '{',
    '}',
    ':',
    ' ',
    '  ',
    '\n',
    '\n\n',
    '\r\n',
    '\t',
    '\u0085',
    '\u00a0',
    '\u2003',
    '\u3000',
    '\ufeff',
    'hello',
    'World',
    '2024',
    'x=1;',
    'https://a.b/c'
  ]
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
        const segments = [...textSegments(text, 10_000, size)]
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
    const segments = [...textSegments(text, 7, 7)]
    expect(segments.join('')).toBe(text)
    for (const s of segments) {
      expect(s.charCodeAt(0) & 0xfc00).not.toBe(0xdc00)
      expect(s.startsWith('\n') && !s.startsWith('\n\r')).toBe(false)
    }
  })
})

describe.each(ENCODINGS)('%s: a long text cut in the middle', (encoding) => {
  it('counts exactly, from the whole text counted before and the part around the cut', () => {
    const words = fc.array(
      fc.oneof(fc.lorem({ maxCount: 1 }), fc.constantFrom(' ', '\n', '. ', ', ', '42', '\n\n', 'é', '中文', '  ')),
      { minLength: 4000, maxLength: 6000 }
    )
    fc.assert(
      fc.property(
        words,
        fc.double({ min: 0.6, max: 0.95, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (parts, keepShare, headShare) => {
          const text = parts.join(' ')
          fc.pre(text.length >= 20_000)
          expect(countTextTokens(text, encoding)).toBe(expected(text, encoding))
          const keep = Math.floor(text.length * keepShare)
          const head = Math.floor(keep * headShare)
          const cut = `${text.slice(0, head)}\n[...${text.length - keep}...]\n${text.slice(text.length - (keep - head))}`
          expect(countTextTokens(cut, encoding)).toBe(expected(cut, encoding))
        }
      ),
      { numRuns: 20, endOnFailure: true }
    )
  }, 60_000)
})
