import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PLAUSIBLE_COUNT_RATIO, refusalLesson, type RefusalFacts } from './refusal-lesson'

const facts = (over: Partial<RefusalFacts>): RefusalFacts => ({
  sentTokens: 3_000,
  sentProviderTokens: 3_000,
  window: 4_096,
  reservedOutput: 512,
  overflow: {},
  ...over
})

describe('what a refusal teaches', () => {
  it("learns the server's window when it names one smaller than the one set, with its own count", () => {
    const lesson = refusalLesson(facts({ sentTokens: 400, overflow: { window: 600, inputTokens: 388 } }), 'local-4k')
    expect(lesson.window).toBe(600)
    expect(lesson.providerInput).toBe(388)
    expect(lesson.note).toBe(
      "The server refused a request as longer than local-4k's window: it takes 600 tokens, not 4,096 as set. This chat now uses 600; change it in the chat's settings."
    )
  })

  it("takes the server's count as a count when its window is the one set", () => {
    expect(refusalLesson(facts({ overflow: { window: 4_096, inputTokens: 3_900 } }), 'm')).toEqual({
      providerInput: 3_900
    })
    // Anthropic's "P tokens > M maximum" where M is the room for input here: no window to learn.
    expect(refusalLesson(facts({ overflow: { maxInput: 3_584, inputTokens: 3_700 } }), 'm')).toEqual({
      providerInput: 3_700
    })
  })

  it('believes a bare refusal as a count only as far as a tokenizer could differ', () => {
    // Near the room set: the server counts ~1.2× the estimate.
    expect(refusalLesson(facts({}), 'm').providerInput).toBe(Math.ceil((4_096 - 512 + 1) * 1.1))
    // A 1k-token request refused on a 4k window: a smaller window, not a count 4× the estimate.
    const small = refusalLesson(facts({ sentTokens: 1_000, sentProviderTokens: 1_000 }), 'gpt-x')
    expect(small.providerInput).toBeUndefined()
    expect(small.window).toBe(Math.floor((1_000 + 512) * 0.9))
    expect(small.note).toMatch(/^The server refused a request of about 1,000 tokens as longer than gpt-x's window/)
  })

  it('never moves the count past what a tokenizer could differ by, nor grows the window, whatever the numbers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1_024, max: 400_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
        (sent, window, inputTokens, maxInput, named) => {
          const f = facts({
            sentTokens: sent,
            sentProviderTokens: sent,
            window,
            reservedOutput: Math.floor(window / 4),
            overflow: { inputTokens, maxInput, window: named }
          })
          const lesson = refusalLesson(f, 'm')
          if (lesson.window !== undefined) expect(lesson.window).toBeLessThan(window)
          if (lesson.window !== undefined) expect(lesson.note).toBeTruthy()
          // A count not given by the server is believed only within the plausible ratio.
          if (lesson.providerInput !== undefined && inputTokens === undefined)
            expect(lesson.providerInput).toBeLessThanOrEqual(sent * PLAUSIBLE_COUNT_RATIO)
        }
      )
    )
  })
})
