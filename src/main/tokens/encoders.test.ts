import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { get_encoding, type Tiktoken } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'
import { countTextTokens, freeEncoders, getEncoder, type EncodingName } from './encoders'

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
    for (const t of edgeCases) expect(countTextTokens(t, encoding), JSON.stringify(t.slice(0, 40))).toBe(expected(t, encoding))
  })

  it('on arbitrary text', () => {
    // Whitespace of every kind next to letters, digits and punctuation is where split regexes differ.
    const tricky = fc.constantFrom(...'aB1é😀./\'s \n\r\t\u000b\u000c\u0085\u00a0\u1680\u180e\u2007\u200b\u2028\u202f\u205f\u3000\ufeff'.split(''))
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.lorem({ maxCount: 60 }), fc.string({ unit: tricky, maxLength: 12 }))
    fc.assert(fc.property(text, (t) => countTextTokens(t, encoding) === expected(t, encoding)), { numRuns: 2000 })
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
