import { describe, expect, it } from 'vitest'
import { informationWords, noteOf, saysNothing } from './information'

describe('the information floor', () => {
  it('finds nothing in greetings, thanks, goodbyes and praise', () => {
    for (const text of [
      'Bye!',
      'Thanks! Appreciate the offer.',
      'Sure thing! Any time you need help, just let me know.',
      'Seems like forever since we caught up!',
      "I'll keep ya posted.",
      "Wow, Mel, that's awesome!",
      "Thanks, Caroline! That's so sweet of you."
    ]) {
      expect(saysNothing(text), text).toBe(true)
    }
  })

  it('keeps names, numbers, places and objects as content', () => {
    expect(saysNothing('Thanks! The flight lands at 7:40.')).toBe(false)
    expect(informationWords('I adopted a greyhound called Pepper from the Riverside shelter.')).toEqual([
      'adopted',
      'greyhound',
      'called',
      'pepper',
      'riverside',
      'shelter'
    ])
    expect(saysNothing('Bye, see you in Lisbon!')).toBe(false)
  })
})

describe('noteOf', () => {
  it("drops interjections, hedges and clauses that say nothing, and keeps the facts in the writer's words", () => {
    expect(
      noteOf('So much has happened since we last spoke - I went to an LGBTQ conference two days ago (10 July 2023).')
    ).toBe('Went to an LGBTQ conference two days ago (10 July 2023).')
    expect(noteOf('Oh, I think I really want to move to Porto next year, you know.')).toBe(
      'Want to move to Porto next year.'
    )
    expect(noteOf('Since we last spoke, I took my kids to a park yesterday (27 August 2023).')).toBe(
      'Took my kids to a park yesterday (27 August 2023).'
    )
    expect(noteOf('It was such a welcoming place and I was so happy, so far as I know.')).toBe(
      'It was a welcoming place and I was happy, so far as I know.'
    )
  })

  it('keeps a name set off by commas and "let you know"', () => {
    expect(noteOf('While volunteering, I met this amazing woman, Jean, who stayed optimistic.')).toBe(
      'While volunteering, I met this amazing woman, Jean, who stayed optimistic.'
    )
    expect(noteOf('I wanted to let you know I did a charity event.')).toBe(
      'Wanted to let you know I did a charity event.'
    )
    expect(noteOf('Even if it rains, I will go.')).toBe('Even if it rains, I will go.')
  })

  it('keeps what an event was like, which people ask about', () => {
    expect(noteOf('I ran a charity race last Saturday – it was really rewarding.')).toBe(
      'Ran a charity race last Saturday – it was rewarding.'
    )
  })

  it('leaves a sentence that is all small talk as it is (the scorer drops it)', () => {
    expect(noteOf('Thanks so much!')).toBe('Thanks so much!')
  })
})
