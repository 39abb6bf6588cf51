import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { emptyThread, replacedFrom, withDelta } from './thread'

const message = (seq: number, text: string, status: ChatMessage['status'] = 'complete'): ChatMessage => ({
  id: `m${seq}`,
  sessionId: 's',
  seq,
  role: seq % 2 ? 'user' : 'assistant',
  parts: text ? [{ type: 'text', text }] : [],
  status,
  error: null,
  tokenCount: null,
  tokenCounter: null,
  inputTokens: null,
  outputTokens: null,
  createdAt: seq
})

describe('a loaded thread', () => {
  it('takes the server’s messages from the replaced one on, keeping what came before and what events changed meanwhile', () => {
    const thread = {
      ...emptyThread(),
      messages: [message(1, 'a'), message(2, 'b'), message(3, 'old'), message(4, 'gone')],
      hasOlder: true
    }
    const streamed = message(5, 'streamed so far', 'streaming')
    const withStream = { ...thread, messages: [...thread.messages, streamed] }
    const page = { messages: [message(3, 'new'), message(5, '', 'streaming')], hasOlder: true, hasNewer: false }
    const next = replacedFrom(withStream, 'm3', page, new Set(['m5']))
    expect(next.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm5'])
    expect(next.messages[2]!.parts).toEqual([{ type: 'text', text: 'new' }])
    expect(next.messages[3]!.parts).toEqual([{ type: 'text', text: 'streamed so far' }])
    expect(next).toMatchObject({ status: 'ready', hasOlder: true, hasNewer: false })
  })

  it('adds a streamed piece to the last text part, or starts one', () => {
    expect(withDelta(message(2, 'Hel', 'streaming'), 'lo').parts).toEqual([{ type: 'text', text: 'Hello' }])
    expect(withDelta(message(2, '', 'streaming'), 'Hi').parts).toEqual([{ type: 'text', text: 'Hi' }])
  })
})
