import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { ASKED_EDGE_CHARS, askedText, contentWords, recallQuery, recallTerms } from './recall-query'

describe('recallQuery', () => {
  it('keeps the content words of a question, OR-ed, with prefix terms for longer words', () => {
    expect(contentWords('When did Caroline go to the LGBTQ support group?')).toEqual([
      'caroline',
      'lgbtq',
      'support',
      'group'
    ])
    expect(recallQuery('When did Caroline go to the LGBTQ support group?')).toBe(
      '"caroline"* OR "lgbtq"* OR "support"* OR "group"*'
    )
    expect(recallQuery('What port does the staging db listen on?')).toBe('"staging"* OR "listen"* OR "port" OR "db"')
  })

  it('has nothing to search for in a message of only stop words and punctuation', () => {
    expect(recallQuery('What did you say about it?')).toBeUndefined()
    expect(recallQuery('?!… "" ()')).toBeUndefined()
  })

  // A real FTS5 table: whatever a person types, the query must parse.
  const db = new Database(':memory:')
  db.exec("CREATE VIRTUAL TABLE t USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')")
  db.prepare('INSERT INTO t (text) VALUES (?)').run('Caroline went to the support group on 7 May 2023.')
  const search = db.prepare<[string], { text: string }>('SELECT text FROM t WHERE t MATCH ? ORDER BY bm25(t)')
  afterAll(() => db.close())

  it('is never an FTS5 syntax error, whatever the input', () => {
    const odd = [
      '"unclosed',
      'NEAR(a b',
      'a AND OR NOT b',
      'col:value',
      '^start',
      'x* *y',
      "l'été à Zürich",
      '日本語のテキスト',
      '- + ( ) { } [ ]',
      'AND',
      'or'
    ]
    for (const text of odd) {
      const q = recallQuery(text)
      if (q) expect(() => search.all(q), text).not.toThrow()
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const q = recallQuery(text)
        if (q) search.all(q)
      }),
      { numRuns: 300 }
    )
  })

  it('finds a message by other forms of its words', () => {
    expect(search.all(recallQuery('Which groups supported Caroline?')!)).toHaveLength(1)
  })
})

describe('recallQuery on small talk', () => {
  it('searches for nothing when the message says nothing beyond small talk', () => {
    expect(recallQuery('Bye! Thanks, appreciate the offer.')).toBeUndefined()
    expect(recallQuery('Sure thing! Any time you need help, just let me know.')).toBeUndefined()
    expect(recallQuery('Bye! Say hi to Pepper.')).toBeDefined()
  })
})

describe('askedText', () => {
  it('reads a long message by its start and its end, where a question around a pasted text sits', () => {
    const pasted = 'lorem ipsum dolor sit amet '.repeat(40_000)
    const text = `Here is the contract from Halvorsen:\n${pasted}\nWhat did the warehouse in Tromsø cost?`
    const asked = askedText(text)
    expect(asked.length).toBeLessThanOrEqual(2 * ASKED_EDGE_CHARS + 1)
    expect(recallTerms(asked)).toEqual(expect.arrayContaining(['"halvorsen"*', '"warehouse"*', '"tromsø"*']))
    expect(askedText('A short question?')).toBe('A short question?')
  })
})
