import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EXCERPT_GAP, excerpt, quotedIn, sentences, withoutQuoted } from './excerpt'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `We talked about the weather for a while, topic ${i}.`).join(' ')

describe('excerpt', () => {
  it('returns a passage that fits unchanged', () => {
    expect(excerpt('Oscar is my guinea pig.', ['pet'], 100, count)).toBe('Oscar is my guinea pig.')
  })

  it('keeps the sentence a long passage matches, with the one after it, and marks what was left out', () => {
    const text = `${filler(10)} Do you have any pets? Yes, Oscar, my guinea pig. ${filler(10)}`
    const out = excerpt(text, ['pet', 'caroline'], 40, count)
    expect(out).toContain('Do you have any pets?')
    expect(out).toContain('Yes, Oscar, my guinea pig.')
    expect(out.startsWith(EXCERPT_GAP.trimStart())).toBe(true)
    expect(out.endsWith(EXCERPT_GAP.trimEnd())).toBe(true)
    expect(count(out)).toBeLessThanOrEqual(40)
  })

  it('matches other forms of a word: married for marry, stories for story', () => {
    const text = `${filler(8)} We married in 2018. ${filler(8)}`
    expect(excerpt(text, ['marry'], 30, count)).toContain('We married in 2018.')
  })

  it('cuts in the middle when no sentence holds a term', () => {
    const out = excerpt(filler(20), ['volcano'], 50, count)
    expect(out).toMatch(/\[\.\.\.\d+\.\.\.\]/)
  })

  it('never exceeds the limit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('The cat sleeps.', 'Port 5433 is staging!', 'Why not?', 'Lunch at noon.\n'), {
          maxLength: 40
        }),
        fc.integer({ min: 12, max: 80 }),
        (parts, max) => {
          const out = excerpt(parts.join(' '), ['port', 'cat'], max, count)
          expect(count(out)).toBeLessThanOrEqual(max)
        }
      )
    )
  })
})

describe('sentences', () => {
  it('splits on sentence ends and line breaks, keeping closing quotes', () => {
    expect(sentences('I loved "Charlotte\'s Web." Did you? Yes!\nNew line')).toEqual([
      'I loved "Charlotte\'s Web."',
      'Did you?',
      'Yes!',
      'New line'
    ])
  })
})

describe('withoutQuoted', () => {
  const quoted = quotedIn([
    'Summary:\n- User: I went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.'
  ])

  it('leaves out the sentences the summary already quotes, dates added or not, with […] in their place', () => {
    expect(
      withoutQuoted(
        'I went to a LGBTQ support group yesterday and it was so powerful. The stories were inspiring!',
        quoted
      )
    ).toBe('[…] The stories were inspiring!')
    expect(withoutQuoted('I went to a LGBTQ support group yesterday and it was so powerful.', quoted)).toBe('')
  })

  it('keeps short sentences and passages the summary does not hold', () => {
    expect(withoutQuoted('So powerful. We painted a lake at sunrise.', quoted)).toBe(
      'So powerful. We painted a lake at sunrise.'
    )
  })
})

describe('quotedIn with note-form summaries', () => {
  it('knows a sentence the summary prints as a note', () => {
    const quoted = quotedIn(['- Caroline: Went to a LGBTQ support group yesterday (7 May 2023) and it was powerful.'])
    expect(quoted('Oh, I went to a LGBTQ support group yesterday and it was so powerful!')).toBe(true)
    expect(quoted('I went to a pottery class yesterday.')).toBe(false)
  })
})
