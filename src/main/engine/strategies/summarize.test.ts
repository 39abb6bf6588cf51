import { describe, expect, it } from 'vitest'
import { extractiveSummarizer, fitText } from './summarize'

const count = (text: string) => Math.ceil(text.length / 4) + 3

describe('fitText', () => {
  it('keeps a text that fits, cuts one that does not, and gives up on a hopeless target', () => {
    expect(fitText(' short ', 100, count)).toEqual({ text: 'short', tokens: count('short') })
    const cut = fitText('a'.repeat(4000), 100, count)
    expect(cut.tokens).toBeLessThanOrEqual(100)
    expect(cut.text).toMatch(/\[\.\.\.\d+\.\.\.\]/)
    expect(fitText('a'.repeat(4000), 2, count)).toEqual({ text: '', tokens: 0 })
    expect(fitText('   ', 100, count)).toEqual({ text: '', tokens: 0 })
  })
})

describe('extractiveSummarizer', () => {
  const summarize = extractiveSummarizer(count)
  const text =
    'Sure, happy to help. The staging database listens on port 5433, not the default. We decided to use `pg_stat_statements` for the slow query report. Let me know if anything else comes up.'

  it('condenses one turn without header or speaker label', () => {
    const out = summarize({ purpose: 'turn', messages: [{ role: 'assistant', text }], targetTokens: 30 })
    expect(out).not.toMatch(/Summary of|Assistant:/)
    expect(out).toMatch(/5433|pg_stat_statements/)
    expect(out).not.toMatch(/happy to help|Let me know/)
    expect(fitText(out, 30, count).text).toBe(out)
  })

  it('summarizes topics with the usual header and labels', () => {
    const out = summarize({ purpose: 'topic', messages: [{ role: 'user', text }], targetTokens: 60 })
    expect(out.split('\n')[0]).toBe('Summary of 1 earlier message (extractive):')
    expect(out).toContain('- User:')
  })
})
