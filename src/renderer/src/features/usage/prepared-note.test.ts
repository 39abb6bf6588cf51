import { describe, expect, it } from 'vitest'
import { preparedNote } from './prepared-note'

describe('the note on a summary written ahead', () => {
  it('says nothing when none is prepared', () => {
    expect(preparedNote({ preparedSummary: null })).toBeUndefined()
  })
  it('says it is being written, then its size once ready', () => {
    const base = { messages: 42, firstSeq: 1, lastSeq: 42, costUsd: null }
    expect(preparedNote({ preparedSummary: { ...base, state: 'writing', tokens: null } })).toMatch(
      /^Writing the next summary ahead \(42 messages\)/
    )
    expect(preparedNote({ preparedSummary: { ...base, state: 'ready', tokens: 1234 } })).toMatch(
      /^Next summary ready: 42 messages in 1,234 tokens\./
    )
    expect(preparedNote({ preparedSummary: { ...base, state: 'ready', tokens: 1234, costUsd: 0.0021 } })).toMatch(
      /^Next summary ready: 42 messages in 1,234 tokens \(cost about \$0\.0021\)\./
    )
  })
})
