import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunkText, textChunks } from './chunk-text'

describe('chunkText', () => {
  it('packs paragraphs into passages up to the limit', () => {
    expect(chunkText('one\n\ntwo\n\nthree', 9)).toEqual(['one\n\ntwo', 'three'])
  })

  it('splits a long paragraph at line ends and cuts a long line, dropping no word', () => {
    const text = `${'a'.repeat(25)}\n${'b'.repeat(5)}\n\nend`
    const chunks = chunkText(text, 10)
    expect(chunks.every((c) => c.length <= 10)).toBe(true)
    expect(chunks.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''))
  })

  it('makes nothing of blank text', () => {
    expect(chunkText(' \n\n \n')).toEqual([])
  })

  it('keeps every word in order and every passage within the limit, whatever the lines', () => {
    const piece = fc.constantFrom('a', 'word ', ' ', '\t', '\n', '\r\n', '\n\n', '\u00a0', '\u2028')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), fc.integer({ min: 3, max: 40 }), (pieces, max) => {
        const text = pieces.join('')
        const chunks = chunkText(text, max)
        expect(chunks.every((c) => c.length <= max)).toBe(true)
        expect(chunks.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''))
      })
    )
  })

  it('cuts a file of millions of short lines a passage at a time', () => {
    const chunks = textChunks('ab\n'.repeat(2_000_000))
    expect(chunks.next().value).toBe('ab\n'.repeat(400).slice(0, 1199))
  })
})
