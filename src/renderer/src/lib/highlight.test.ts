import { describe, expect, it } from 'vitest'
import { snippetParts } from './highlight'

describe('snippetParts', () => {
  it('splits a snippet into text and matches', () => {
    expect(snippetParts('the \u0002quick\u0003 brown \u0002fox\u0003')).toEqual([
      { text: 'the ', match: false },
      { text: 'quick', match: true },
      { text: ' brown ', match: false },
      { text: 'fox', match: true }
    ])
  })

  it('keeps plain text as is', () => {
    expect(snippetParts('no match here')).toEqual([{ text: 'no match here', match: false }])
  })

  it('survives an unclosed or stray marker', () => {
    expect(snippetParts('a \u0002b')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true }
    ])
    expect(snippetParts('x\u0003y')).toEqual([{ text: 'xy', match: false }])
  })

  it('renders no markup: angle brackets stay text', () => {
    expect(
      snippetParts('<b>\u0002x\u0003</b>')
        .map((p) => p.text)
        .join('')
    ).toBe('<b>x</b>')
  })
})
