import { describe, expect, it } from 'vitest'
import type { EngineMessage } from '../../types'
import { hasTopicPhrase, isTopicBoundary } from './boundary'
import { DEFAULT_TIERED_CONFIG, validateTieredConfig } from './config'

const MIN = 60_000
const msg = (seq: number, text: string, extra: Partial<EngineMessage> = {}): EngineMessage => ({
  id: `m${seq}`,
  seq,
  role: 'user',
  text,
  tokens: 10,
  createdAt: seq * MIN,
  ...extra
})
const decide = (message: EngineMessage, previous?: EngineMessage, currentTopicTokens = 0, allocation = 1000) =>
  isTopicBoundary({ message, previous, currentTopicTokens, allocation, config: DEFAULT_TIERED_CONFIG })

describe('topic phrases', () => {
  it.each([
    'New topic: how do I rotate the API keys?',
    "OK thanks! Let's move on to the billing page.",
    'Switching gears — what about the database migration?',
    'Different question: does Postgres 16 support MERGE?',
    'On another note, the launch moved to Friday.',
    'Thanks, that works. Different question: how are refunds computed?',
    'Alright. Moving on, the CSS grid is broken on Safari.',
    'Can we change the subject for a minute?',
    'Totally unrelated, but which keyboard do you use?',
    'NEW TOPIC'
  ])('switches on %j', (text) => expect(hasTopicPhrase(text)).toBe(true))

  it.each([
    'Can you continue with the same topic?',
    'The new topical cream did not help.',
    'Is this a different question from the one in the docs?',
    'We are moving onward with the plan.',
    `${'Lots of detail about the schema. '.repeat(12)}New topic: something else`
  ])('does not switch on %j', (text) => expect(hasTopicPhrase(text)).toBe(false))

  it('matches a strong phrase even when quoted (a known misfire; the user can keep talking, nothing is lost)', () => {
    expect(hasTopicPhrase('I read "new topic" somewhere')).toBe(true)
  })
})

describe('isTopicBoundary', () => {
  const prev = msg(1, 'We were talking about the build.', { role: 'assistant' })

  it('needs a current topic and a user message', () => {
    expect(decide(msg(2, 'New topic: taxes'))).toEqual({ boundary: false })
    expect(decide(msg(2, 'New topic: taxes', { role: 'assistant' }), prev)).toEqual({ boundary: false })
    expect(decide(msg(2, 'New topic', { toolResultIds: ['c1'] }), prev)).toEqual({ boundary: false })
  })

  it('opens a topic on a phrase', () => {
    expect(decide(msg(2, 'Switching gears: taxes'), prev)).toEqual({ boundary: true, reason: 'phrase' })
  })

  it('opens a topic after more than 30 minutes of silence', () => {
    expect(decide(msg(2, 'still there?', { createdAt: prev.createdAt + 30 * MIN }), prev)).toEqual({ boundary: false })
    expect(decide(msg(2, 'still there?', { createdAt: prev.createdAt + 30 * MIN + 1 }), prev)).toEqual({
      boundary: true,
      reason: 'silence'
    })
    const off = {
      ...DEFAULT_TIERED_CONFIG,
      topicBoundary: { ...DEFAULT_TIERED_CONFIG.topicBoundary, silenceMinutes: 0 }
    }
    expect(
      isTopicBoundary({
        message: msg(2, 'hi', { createdAt: 10 ** 12 }),
        previous: prev,
        currentTopicTokens: 0,
        allocation: 100,
        config: off
      }).boundary
    ).toBe(false)
  })

  it('seals the current topic once it passes 60% of its allocation', () => {
    expect(decide(msg(2, 'and then?'), prev, 600, 1000)).toEqual({ boundary: false })
    expect(decide(msg(2, 'and then?'), prev, 601, 1000)).toEqual({ boundary: true, reason: 'size' })
  })
})

describe('validateTieredConfig', () => {
  it('accepts the ADR defaults', () => {
    expect(validateTieredConfig(DEFAULT_TIERED_CONFIG)).toEqual([])
    expect(DEFAULT_TIERED_CONFIG).toMatchObject({
      tiers: { currentTopic: 0.5, historicalTopics: 0.3, bulkArchives: 0.2 },
      maxMessageChars: 2000,
      topicSummaryTokens: 200,
      bulkSummaryTokens: 300,
      bulkMergeSize: 3,
      topicBoundary: { silenceMinutes: 30, tokenThreshold: 0.6 },
      attentionRatio: 0.65
    })
  })

  it('reports shares that do not sum to 1 and invalid numbers', () => {
    const bad = {
      ...DEFAULT_TIERED_CONFIG,
      tiers: { currentTopic: 0.6, historicalTopics: 0.3, bulkArchives: 0.2 },
      bulkMergeSize: 0,
      topicSummaryTokens: 1.5,
      attentionRatio: 0
    }
    const errors = validateTieredConfig(bad)
    expect(errors).toContainEqual(expect.stringMatching(/sum to 1 \(they sum to 1.1\)/))
    expect(errors).toContainEqual(expect.stringMatching(/bulkMergeSize/))
    expect(errors).toContainEqual(expect.stringMatching(/topicSummaryTokens/))
    expect(errors).toContainEqual(expect.stringMatching(/attentionRatio/))
    expect(errors).toHaveLength(4)
  })
})
