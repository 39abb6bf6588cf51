import { describe, expect, it } from 'vitest'
import { namesFromHeader, namesNote, speakerNames } from './speaker-labels'

describe('speakerNames', () => {
  it('names each side by how the other side addresses it', () => {
    const messages = [
      { role: 'user', text: 'Hey Mel! I went hiking on Sunday.' },
      { role: 'assistant', text: 'Thanks, Caroline! That sounds lovely.' },
      { role: 'user', text: 'Good to hear from you, Mel.' },
      { role: 'assistant', text: 'Hi Caroline, how was the trip?' }
    ]
    expect(speakerNames(messages)).toEqual({ user: 'Caroline', assistant: 'Mel' })
  })

  it('names nobody from a single address or a word the chat also writes in lower case', () => {
    expect(speakerNames([{ role: 'assistant', text: 'Thanks, Anna!' }])).toEqual({})
    const messages = [
      { role: 'assistant', text: 'Yesterday, I went out.' },
      { role: 'assistant', text: 'Yesterday, it rained.' },
      { role: 'user', text: 'What did you do yesterday?' }
    ]
    expect(speakerNames(messages)).toEqual({})
  })

  it('keeps the names in the header for the next cascade', () => {
    const note = namesNote({ user: 'Caroline', assistant: 'Mel' })
    expect(namesFromHeader(`Summary of 3 earlier messages (extractive${note}):`)).toEqual({
      user: 'Caroline',
      assistant: 'Mel'
    })
  })
})
