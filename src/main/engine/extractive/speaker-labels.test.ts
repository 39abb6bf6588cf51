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

  it('takes no reply opener for a name, however often replies start with it', () => {
    const messages = [
      { role: 'user', text: 'Please move the standup to 9:30 on Tuesdays.' },
      { role: 'assistant', text: 'Understood. The standup is now at 9:30 on Tuesdays.' },
      { role: 'user', text: 'Can you draft the release notes for v2.4?' },
      { role: 'assistant', text: 'Certainly! Here is a draft covering the new export formats.' },
      { role: 'user', text: 'Remember that Priya owns the billing service.' },
      { role: 'assistant', text: 'Noted. Priya owns billing.' },
      { role: 'user', text: 'Archive the Q3 tickets, please.' },
      { role: 'assistant', text: 'Done. 212 tickets were archived.' },
      { role: 'user', text: 'Keep the old dashboard for a month.' },
      { role: 'assistant', text: 'Understood. It stays until 14 March.' },
      { role: 'user', text: 'And the new one goes live after that?' },
      { role: 'assistant', text: 'Certainly! Noted. Done.' }
    ]
    expect(speakerNames(messages)).toEqual({})
  })

  it('takes a word that only ever opens a sentence for an opener, listed or not', () => {
    const messages = [
      { role: 'user', text: 'The venue holds 120 people.' },
      { role: 'assistant', text: 'Splendid. Then we can invite the whole department.' },
      { role: 'user', text: 'Catering is booked for noon.' },
      { role: 'assistant', text: 'Splendid! I will send the invitations today.' }
    ]
    expect(speakerNames(messages)).toEqual({})
  })

  it('still names people the chat addresses, also where a reply opens with their name or a stock word', () => {
    const messages = [
      { role: 'user', text: 'Hi Caroline, can you book the flights to Oslo for the 12th?' },
      { role: 'assistant', text: 'Certainly, Melanie! Booked: SK 4411, leaving at 07:40.' },
      { role: 'user', text: 'Caroline, please add a hotel near the harbour.' },
      { role: 'assistant', text: 'Understood. Melanie, the Thon Hotel Opera has a room for three nights.' },
      { role: 'user', text: 'Thanks, Caroline!' },
      { role: 'assistant', text: 'Sure, Melanie. Anything else?' }
    ]
    expect(speakerNames(messages)).toEqual({ user: 'Melanie', assistant: 'Caroline' })
  })

  it('keeps the names in the header for the next cascade', () => {
    const note = namesNote({ user: 'Caroline', assistant: 'Mel' })
    expect(namesFromHeader(`Summary of 3 earlier messages (extractive${note}):`)).toEqual({
      user: 'Caroline',
      assistant: 'Mel'
    })
    // A header written when openers were still taken for names does not pass them on.
    expect(namesFromHeader('Summary of 6 earlier messages (extractive; user: Understood, assistant: Mel):')).toEqual({
      assistant: 'Mel'
    })
  })
})
