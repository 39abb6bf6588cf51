import { describe, expect, it } from 'vitest'
import { moreChatsNote, moreNote, searchSummary } from './search-summary'

const totals = { matches: 6, titleMatches: 0, chats: 2, countIsLowerBound: false }

describe('searchSummary', () => {
  it('counts the matching messages the chats’ own counts add up to', () => {
    expect(searchSummary(totals)).toBe('6 matches in 2 chats')
    expect(searchSummary({ ...totals, matches: 1, chats: 1 })).toBe('1 match in 1 chat')
  })

  it('names matching titles apart from the messages', () => {
    expect(searchSummary({ ...totals, titleMatches: 1 })).toBe('6 matches and 1 title in 2 chats')
    expect(searchSummary({ ...totals, matches: 0, titleMatches: 1, chats: 1 })).toBe('1 title matches')
    expect(searchSummary({ ...totals, matches: 0, titleMatches: 2, chats: 2 })).toBe('2 titles match')
  })

  it('says "+" when older matches of a common word were not counted', () => {
    expect(searchSummary({ ...totals, matches: 2000, chats: 40, countIsLowerBound: true })).toBe(
      '2,000+ matches in 40+ chats'
    )
  })
})

describe('moreNote', () => {
  const passage = { messageId: 'm', seq: 1, role: 'user', createdAt: 0, text: 't', ranges: [] }
  const result = (count: number, shown: number, countIsLowerBound = false) => ({
    count,
    countIsLowerBound,
    passages: Array.from({ length: shown }, () => passage)
  })

  it('says how many matches of the chat its passages leave out', () => {
    expect(moreNote(result(4, 3))).toBe('1 more in this chat')
    expect(moreNote(result(12, 3, true))).toBe('9+ more in this chat')
  })

  it('says nothing when every match is shown, or none is (a title match)', () => {
    expect(moreNote(result(3, 3))).toBeNull()
    expect(moreNote(result(0, 0))).toBeNull()
  })
})

describe('moreChatsNote', () => {
  it('says when chats are left out: more found than listed, or a common word ranked over its newest matches', () => {
    expect(moreChatsNote({ chats: 2, countIsLowerBound: false }, 2)).toBeNull()
    expect(moreChatsNote({ chats: 60, countIsLowerBound: false }, 50)).toBe(
      'Showing the best 50 chats. Type more words to narrow the search.'
    )
    expect(moreChatsNote({ chats: 6, countIsLowerBound: true }, 6)).toBe(
      'Showing 6 chats; more may match. Type more words to narrow the search.'
    )
  })
})
