import { describe, expect, it } from 'vitest'
import { clip, messageUnits, splitSentences, summaryUnits } from './sentences'

describe('splitSentences', () => {
  it('splits on sentence ends followed by a capital or a digit', () => {
    expect(splitSentences('We met. It rained! Did it? 2027 was fine.')).toEqual([
      'We met.',
      'It rained!',
      'Did it?',
      '2027 was fine.'
    ])
  })

  it('keeps abbreviations, decimals, versions and file names whole', () => {
    expect(splitSentences('Use v2.3.1 e.g. In prod. Dr. Smith said 3.5 GB is fine. Edit config.ts now.')).toEqual([
      'Use v2.3.1 e.g. In prod.',
      'Dr. Smith said 3.5 GB is fine.',
      'Edit config.ts now.'
    ])
  })

  it('does not split before a lowercase word', () => {
    expect(splitSentences('It costs approx. ten euros. and more')).toEqual(['It costs approx. ten euros. and more'])
  })
})

describe('clip', () => {
  it('cuts long text at a word boundary and marks the cut', () => {
    const out = clip('word '.repeat(100), 50)
    expect(out.length).toBeLessThanOrEqual(50)
    expect(out.endsWith('…')).toBe(true)
  })
})

describe('messageUnits', () => {
  it('turns a code block into one unit with its first line', () => {
    const text =
      'Here it is:\n```ts\nexport function loadInvoices(cursor: string) {\n  return db.query(cursor)\n}\n```\nThat should do.'
    const units = messageUnits(text, 'assistant', 0, { nextPosition: 0 })
    expect(units.map((u) => u.text)).toEqual([
      'Here it is:',
      'Code (ts): `export function loadInvoices(cursor: string) {` …',
      'That should do.'
    ])
    expect(units.map((u) => u.position)).toEqual([0, 1, 2])
    expect(units.every((u) => u.label === 'Assistant')).toBe(true)
  })

  it('drops list markers and table rules', () => {
    const units = messageUnits('- First item here.\n|---|---|\n## Heading', 'user', 3, { nextPosition: 10 })
    expect(units.map((u) => u.text)).toEqual(['First item here.', 'Heading'])
    expect(units[0]?.group).toBe(3)
  })
})

describe('summaryUnits', () => {
  it('keeps labels, reads the header count and splits joined sentences', () => {
    const summary =
      'Summary of 12 earlier messages (extractive):\n- User: The port is 5433. … We chose Kestrel Lodge.\n- Assistant: Noted.\nfree text line'
    const { units, covered, groups } = summaryUnits(summary, { nextPosition: 0 }, 0)
    expect(covered).toBe(12)
    expect(groups).toBe(3)
    expect(units.map((u) => [u.label, u.text])).toEqual([
      ['User', 'The port is 5433.'],
      ['User', 'We chose Kestrel Lodge.'],
      ['Assistant', 'Noted.'],
      ['Summary', 'free text line']
    ])
  })
})
