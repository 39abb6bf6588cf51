import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CountedTexts, countIndexed } from './counted-texts'

// A count that adds up over any split and changes with any character: the sum over the reused start,
// the counted middle and the reused end is the whole text's only if the shared parts really are shared.
const byCodes = (s: string) => {
  let n = 0
  for (let i = 0; i < s.length; i++) n += s.charCodeAt(i)
  return n
}

describe('CountedTexts.reuse', () => {
  it('counts a long text changed in the middle exactly from the counted one, the change next to a segment end', () => {
    const word = fc.constantFrom('alpha ', 'beta ', 'gamma\n', 'δέλτα ', '42, ', '😀 ')
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 4_000, maxLength: 8_000 }),
        fc.nat(),
        fc.integer({ min: -60, max: 60 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.string({ maxLength: 40 }),
        (words, pick, offset, removed, inserted) => {
          const base = words.join('')
          const counted = countIndexed(base, byCodes)
          const end = counted.ends[pick % counted.ends.length]!
          const from = Math.max(0, Math.min(base.length, end + offset))
          const text = base.slice(0, from) + inserted + base.slice(Math.min(base.length, from + removed))
          const texts = new CountedTexts(4)
          texts.add(counted)
          const reused = texts.reuse(text, byCodes)
          if (reused !== undefined) expect(reused).toBe(byCodes(text))
        }
      ),
      { numRuns: 80 }
    )
  })
})
