import { describe, expect, it } from 'vitest'
import { chunkText } from './chunk-text'

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
})
