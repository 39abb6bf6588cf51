import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { buildRows } from './message-rows'

function message(seq: number): ChatMessage {
  return {
    id: `m${seq}`,
    sessionId: 's',
    seq,
    role: seq % 2 ? 'user' : 'assistant',
    parts: [{ type: 'text', text: `message ${seq}` }],
    status: 'complete',
    error: null,
    tokenCount: 3,
    tokenCounter: null,
    inputTokens: null,
    outputTokens: null,
    createdAt: seq
  }
}

const kinds = (rows: ReturnType<typeof buildRows>) =>
  rows.map((r) => (r.kind === 'divider' ? '|' : `${r.message.seq}${r.inContext ? '' : '-'}`))

describe('buildRows', () => {
  const messages = [1, 2, 3, 4, 5].map(message)

  it('has no divider without a summary', () => {
    expect(kinds(buildRows(messages, 0))).toEqual(['1', '2', '3', '4', '5'])
  })

  it('puts the divider after the last summarized message', () => {
    expect(kinds(buildRows(messages, 3))).toEqual(['1-', '2-', '3-', '|', '4', '5'])
  })

  it('ends with the divider when everything is summarized', () => {
    expect(kinds(buildRows(messages, 5))).toEqual(['1-', '2-', '3-', '4-', '5-', '|'])
  })

  it('in a page of summarized messages with newer ones not loaded, leaves the divider to where it belongs', () => {
    expect(kinds(buildRows(messages, 9, true))).toEqual(['1-', '2-', '3-', '4-', '5-'])
    expect(kinds(buildRows(messages, 3, true))).toEqual(['1-', '2-', '3-', '|', '4', '5'])
  })
})
