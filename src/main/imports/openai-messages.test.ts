import { describe, expect, it } from 'vitest'
import { ImportError, parseOpenAIMessages } from './openai-messages'

describe('parseOpenAIMessages', () => {
  it('reads an array with names, tool calls and their results', () => {
    const messages = parseOpenAIMessages(
      JSON.stringify([
        { role: 'system', name: 'example_user', content: 'Hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }]
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"temp":3}' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Thanks' },
            { type: 'image_url', image_url: { url: 'x' } }
          ]
        }
      ])
    )
    expect(messages).toEqual([
      { role: 'system', name: 'example_user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Oslo"}' }]
      },
      { role: 'tool', parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: '{"temp":3}' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Thanks' },
          { type: 'text', text: '[image_url]' }
        ]
      }
    ])
  })

  it('reads JSONL and { messages } files', () => {
    expect(parseOpenAIMessages('{"role":"user","content":"a"}\n\n{"role":"assistant","content":"b"}\n')).toHaveLength(2)
    expect(parseOpenAIMessages('{"messages":[{"role":"user","content":"a"}]}')).toHaveLength(1)
  })

  it('names the message or line that is wrong', () => {
    expect(() => parseOpenAIMessages('[{"role":"user","content":"a"},{"role":"robot"}]')).toThrow(/Message 2 at role/)
    expect(() => parseOpenAIMessages('{"role":"user","content":"a"}\n{oops')).toThrow(/Line 2 is not valid JSON/)
    expect(() => parseOpenAIMessages('   ')).toThrow(ImportError)
    expect(() => parseOpenAIMessages('[1,2')).toThrow(/not valid JSON/)
  })
})
