import { describe, expect, it } from 'vitest'
import { summarizeExtractive, summarizeWithSources } from './summarize-extractive'
import { dayFromTimestamp } from './dates'

const quarter = (s: string) => Math.ceil(s.length / 4)
const PLACES = ['Lisbon', 'Kyoto', 'Nairobi', 'Oslo', 'Quito', 'Tbilisi', 'Lima', 'Hanoi']
const WHO = ['Dana', 'Emeka', 'Farah', 'Bruno', 'Chen']
const DID = [
  'flew to',
  'rented a flat in',
  'sold a bike in',
  'ran a race in',
  'took a class in',
  'lost a bag in',
  'met a cousin in',
  'painted a mural in'
]
/** Forty distinct facts (no two share most of their words). */
const fact = (i: number) =>
  `${WHO[i % 5]} ${DID[Math.floor(i / 5)]} ${PLACES[(i * 3) % 8]} for ${4000 + i * 37} dollars.`
const messages = Array.from({ length: 40 }, (_, i) => ({
  role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
  text: fact(i)
}))

describe('summarizeExtractive with sections', () => {
  it('prints each part under its title, once, under one header, the day heading again under a new title', () => {
    const day = dayFromTimestamp(new Date(2023, 4, 8, 12).getTime())!
    const sections = [
      { start: 0, title: '### Old part' },
      { start: 30, title: '### New part' }
    ]
    const out = summarizeExtractive({
      messages: messages.map((m) => ({ ...m, statedDay: day })),
      sections,
      targetTokens: 2000,
      countTokens: quarter
    })
    const lines = out.split('\n')
    expect(lines.filter((l) => l.startsWith('Summary of'))).toHaveLength(1)
    const oldAt = lines.indexOf('### Old part')
    const newAt = lines.indexOf('### New part')
    expect(oldAt).toBe(1)
    expect(lines.slice(oldAt, newAt).filter((l) => l.startsWith('- '))).toHaveLength(30)
    expect(lines.slice(newAt).filter((l) => l.startsWith('- '))).toHaveLength(10)
    expect(lines[newAt + 1]).toBe(lines[oldAt + 1])
    expect(lines[newAt + 1]).toMatch(/^8 May 2023:$/)
  })

  it('leaves out the title of a part none of whose lines is chosen', () => {
    const out = summarizeExtractive({
      messages: [...messages.slice(0, 5), { role: 'user', text: 'Thanks!' }],
      sections: [
        { start: 0, title: '### Facts' },
        { start: 5, title: '### Thanks' }
      ],
      targetTokens: 200,
      countTokens: quarter
    })
    expect(out).toContain('### Facts')
    expect(out).not.toContain('### Thanks')
  })
})

describe('summarizeExtractive with weights', () => {
  it('chooses the sentences of a weightier message first', () => {
    const two = [
      { role: 'user' as const, text: fact(1) },
      { role: 'user' as const, text: fact(2) }
    ]
    const room = quarter(summarizeExtractive({ messages: two.slice(0, 1), targetTokens: 200, countTokens: quarter }))
    const plain = summarizeExtractive({ messages: two, targetTokens: room, countTokens: quarter })
    const weighted = summarizeWithSources({
      messages: [two[0]!, { ...two[1]!, weight: 2 }],
      targetTokens: room,
      countTokens: quarter
    })
    expect(plain).toContain(fact(1).slice(0, -1))
    expect(plain).not.toContain(fact(2).slice(0, -1))
    expect(weighted.text).toContain(fact(2).slice(0, -1))
    expect([...weighted.quoted]).toEqual([1])
  })
})
