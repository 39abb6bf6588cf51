import { describe, expect, it } from 'vitest'
import { addressCounts, nameCandidates, roleOfName } from './speaker-names'

describe('who a name in a message is', () => {
  it('takes capitalised words past the start of a sentence as names', () => {
    expect(nameCandidates("What are Melanie's pets' names? Did Caroline and Mel see them?")).toEqual([
      'melanie',
      'caroline',
      'mel'
    ])
    expect(nameCandidates('Where did we go?')).toEqual([])
  })

  it('learns which side a name is from the other side addressing it, not from mentions', () => {
    const chat = [
      { role: 'assistant' as const, text: 'Thanks, Caroline! That sounds lovely.' },
      { role: 'assistant' as const, text: 'Hey Caroline, how was the parade?' },
      { role: 'user' as const, text: 'It was great. I went with Rob from work.' },
      { role: 'user' as const, text: 'Rob says hi. Anyway, how are the kids?' },
      { role: 'user' as const, text: 'Rob liked the parade too.' }
    ]
    expect(addressCounts('caroline', chat)).toEqual({ user: 0, assistant: 2 })
    // Caroline is who the assistant side talks to: the user.
    expect(roleOfName(addressCounts('caroline', chat))).toBe('user')
    // Rob is talked about, never talked to: nobody in the chat.
    expect(roleOfName(addressCounts('rob', chat))).toBeUndefined()
  })

  it('names no side when both sides address the name or it is addressed once', () => {
    expect(roleOfName({ user: 3, assistant: 3 })).toBeUndefined()
    expect(roleOfName({ user: 0, assistant: 1 })).toBeUndefined()
    expect(roleOfName({ user: 5, assistant: 1 })).toBe('assistant')
  })
})
