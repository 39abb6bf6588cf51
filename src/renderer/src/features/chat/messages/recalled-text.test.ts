import { describe, expect, it } from 'vitest'
import { byChat, recalledSummary } from './recalled-text'

const from = (sessionId: string, chatTitle: string, messageId: string) => ({
  messageId,
  sessionId,
  chatTitle,
  role: 'assistant',
  preview: 'text'
})

describe('recalledSummary', () => {
  it('counts the chat’s own earlier messages', () => {
    expect(recalledSummary(3, [])).toBe('Recalled 3 earlier messages')
    expect(recalledSummary(1, [])).toBe('Recalled 1 earlier message')
  })

  it('names the other chat the messages came from', () => {
    expect(recalledSummary(0, [from('t', 'Trip planning', 'a'), from('t', 'Trip planning', 'b')])).toBe(
      'Recalled 2 messages from “Trip planning”'
    )
    expect(recalledSummary(0, [from('t', 'Trip planning', 'a'), from('p', 'Packing', 'b')])).toBe(
      'Recalled 2 messages from 2 other chats'
    )
  })

  it('says both when the request recalled from this chat and from others', () => {
    expect(recalledSummary(3, [from('t', 'Trip planning', 'a')])).toBe(
      'Recalled 3 earlier messages and 1 from “Trip planning”'
    )
  })
})

describe('byChat', () => {
  it('groups the messages by chat, in the order they were recalled', () => {
    const groups = byChat([from('t', 'Trip', 'a'), from('p', 'Packing', 'b'), from('t', 'Trip', 'c')])
    expect(groups.map((g) => [g.chatTitle, g.messages.map((m) => m.messageId)])).toEqual([
      ['Trip', ['a', 'c']],
      ['Packing', ['b']]
    ])
  })
})
