import { describe, expect, it } from 'vitest'
import { plainPreview, reductionText } from './preview-text'

describe('reductionText', () => {
  it('shows the token reduction the way the meter does', () => {
    expect(reductionText(41_234, 6_321)).toBe('41.2k → 6.3k tokens')
    expect(reductionText(980, 120)).toBe('980 → 120 tokens')
  })
})

describe('plainPreview', () => {
  it('drops Markdown marks and folds whitespace', () => {
    expect(plainPreview('## Context\nThe **API** uses `/v1`.\n\n- one\n- two\n1. three')).toBe(
      'Context The API uses /v1. one two three'
    )
  })

  it('keeps link text and drops code fences', () => {
    expect(plainPreview('See [the docs](https://x.y).\n```ts\nconst a = 1\n```')).toBe('See the docs. const a = 1')
  })
})
