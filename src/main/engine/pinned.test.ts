import { describe, expect, it } from 'vitest'
import { buildContext } from './build-context'
import { PINNED_PREFIX, pinnedBlockText, pinSharePercent } from './pinned'
import type { EngineMessage } from './types'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const message = (seq: number, text: string): EngineMessage => ({
  id: `m${seq}`,
  seq,
  role: seq % 2 ? 'user' : 'assistant',
  text,
  tokens: count(text),
  createdAt: seq
})

describe('pinned messages in the context', () => {
  it('quotes pins word for word, oldest first, under one label', () => {
    const text = pinnedBlockText([
      { role: 'user', text: 'first' },
      { role: 'assistant', text: 'second' }
    ])
    expect(text).toBe(`${PINNED_PREFIX}\n\n--- user ---\nfirst\n\n--- assistant ---\nsecond`)
    expect(pinnedBlockText([])).toBe('')
  })

  it('rounds a share up, so a limit is never passed by a fraction', () => {
    expect(pinSharePercent(250, 1000)).toBe(25)
    expect(pinSharePercent(251, 1000)).toBe(26)
  })

  it('sends the block after the summary and never drops it; a pinned message the history cannot keep joins it', () => {
    const history = Array.from({ length: 12 }, (_, i) => message(i + 1, `turn ${i + 1} `.repeat(40)))
    const block = pinnedBlockText([{ role: 'user', text: 'old pin' }])
    const built = buildContext({
      summary: { id: 's', text: 'summary', tokens: count('summary') },
      pinned: { text: block, tokens: count(block), pins: [{ role: 'user', text: 'old pin' }] },
      pinnedIds: new Set(['m3']),
      messages: history,
      input: { text: 'next', tokens: count('next') },
      usable: 600,
      overheadTokens: 3,
      countTokens: count
    })
    expect(built.messages.map((m) => m.kind).slice(0, 2)).toEqual(['summary', 'pinned'])
    const pinned = built.messages.find((m) => m.kind === 'pinned')!.content
    expect(pinned).toContain('old pin')
    expect(pinned).toContain(`--- user ---\n${history[2]!.text}`)
    expect(built.pinnedMoved).toBe(1)
    // m3 is sent in the block, not counted among the messages left out.
    const sentIds = built.messages.filter((m) => m.kind === 'message').map((m) => m.sourceId)
    expect(built.dropped).toBe(history.length - sentIds.length - 1)
    expect(built.fits).toBe(true)
  })
})
