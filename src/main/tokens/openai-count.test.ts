import { afterAll, describe, expect, it } from 'vitest'
import { resolveModel, type ModelSpec } from '../models/catalog'
import { countTextTokens, freeEncoders } from './encoders'
import { countMessage, requestOverhead } from './message-tokens'
import { countChatRequest, encodingForModel, TOOL_CALL_OVERHEAD } from './openai-count'
import { toChatWireMessages, type CountableMessage } from './render'

afterAll(() => freeEncoders())

// "How to count tokens with tiktoken" (openai-cookbook), example_messages.
const cookbook: CountableMessage[] = [
  ['system', 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.'],
  ['system', 'New synergies will help drive top-line growth.', 'example_user'],
  ['system', 'Things working well together will increase revenue.', 'example_assistant'],
  [
    'system',
    "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
    'example_user'
  ],
  ['system', "Let's talk later when we're less busy about how to do better.", 'example_assistant'],
  ['user', "This late pivot means we don't have time to boil the ocean for the client deliverable."]
].map(([role, text, name]) => ({
  role: role as CountableMessage['role'],
  parts: [{ type: 'text' as const, text: text! }],
  ...(name ? { name } : {})
}))

const spec = (id: string): ModelSpec => resolveModel('openai', id)!

describe('OpenAI chat counting', () => {
  it.each([
    ['gpt-3.5-turbo', 129],
    ['gpt-4', 129],
    ['gpt-4o', 124],
    ['gpt-4o-mini', 124]
  ])('matches the cookbook prompt_tokens for %s (%i)', (id, expected) => {
    const enc = encodingForModel(id)!
    expect(countChatRequest(cookbook.flatMap(toChatWireMessages), enc)).toBe(expected)
    // and stored per-message counts add up to the same request total
    const s = spec(id)
    expect(cookbook.reduce((sum, m) => sum + countMessage(m, s).tokens, requestOverhead(s))).toBe(expected)
  })

  it('picks the encoding by model family', () => {
    for (const id of ['gpt-4o', 'gpt-4.1-mini', 'gpt-5', 'o3', 'o4-mini'])
      expect(encodingForModel(id)).toBe('o200k_base')
    for (const id of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo']) expect(encodingForModel(id)).toBe('cl100k_base')
    expect(encodingForModel('llama3')).toBeUndefined()
  })

  it('counts tool calls by name + JSON arguments and results by their JSON output', () => {
    const s = spec('gpt-4o')
    const input = { city: 'Paris', unit: 'celsius' }
    const call: CountableMessage = {
      role: 'assistant',
      parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input }]
    }
    const t = (x: string) => countTextTokens(x, 'o200k_base')
    expect(countMessage(call, s).tokens).toBe(
      3 + t('assistant') + TOOL_CALL_OVERHEAD + t('get_weather') + t(JSON.stringify(input))
    )
    const output = { type: 'json', value: { temp: 21 } }
    const result: CountableMessage = {
      role: 'tool',
      parts: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output }]
    }
    expect(countMessage(result, s).tokens).toBe(3 + t('tool') + t('{"temp":21}'))
    // two results are two 'tool' messages on the wire
    const two = { ...result, parts: [...result.parts, ...result.parts] }
    expect(countMessage(two, s).tokens).toBe(2 * countMessage(result, s).tokens)
  })

  it('counts attachments by metadata only, and special tokens in user text as text', () => {
    const s = spec('gpt-4o')
    const att: CountableMessage = {
      role: 'user',
      parts: [{ type: 'attachment', filename: 'report.pdf', mediaType: 'application/pdf', size: 52_341_000 }]
    }
    expect(countMessage(att, s).tokens).toBe(
      3 + 1 + countTextTokens('[attachment: report.pdf, application/pdf, 52341000 bytes]', 'o200k_base')
    )
    const special: CountableMessage = { role: 'user', parts: [{ type: 'text', text: 'say <|endoftext|> now' }] }
    expect(countMessage(special, s).tokens).toBeGreaterThan(5)
  })
})
