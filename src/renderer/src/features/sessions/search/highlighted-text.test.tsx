import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { rangeParts } from '../../../lib/range-parts'
import { HighlightedText } from './highlighted-text'

const render = (text: string, ranges: Array<[number, number]>) =>
  renderToStaticMarkup(<HighlightedText text={text} ranges={ranges} />)

describe('HighlightedText', () => {
  it('marks the ranges and nothing else', () => {
    expect(
      render('the quick brown fox', [
        [4, 9],
        [16, 19]
      ])
    ).toBe('<span>the </span><mark>quick</mark><span> brown </span><mark>fox</mark>')
  })

  it('renders markup in the text as text, inside a mark too', () => {
    const text = '<img src=x onerror="alert(1)"> and <b>bold</b>'
    const html = render(text, [[text.indexOf('<b>'), text.length]])
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>')
    expect(html).toBe(
      '<span>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; and </span><mark>&lt;b&gt;bold&lt;/b&gt;</mark>'
    )
  })

  it('survives ranges out of bounds, reversed, overlapping or unordered: every character once', () => {
    const text = 'abcdefghij'
    const parts = rangeParts(text, [
      [8, 99],
      [-5, 2],
      [6, 3],
      [1, 4],
      [3, 5]
    ])
    expect(parts.map((p) => p.text).join('')).toBe(text)
    expect(parts).toEqual([
      { text: 'abcde', match: true },
      { text: 'fgh', match: false },
      { text: 'ij', match: true }
    ])
    expect(render('', [[0, 3]])).toBe('')
  })
})
