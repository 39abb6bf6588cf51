import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../../../test/support/temp-dir'
import { findMigrationsFolder, openDatabase, type Db } from '../client'
import { searchMessages, searchSummarized } from './search-repo'
import { searchChats } from './chat-search-repo'
import { appendMessage, updateMessage } from './messages/messages-repo'
import { deleteSession } from './sessions-repo'

function chat(db: Db, id: string, texts: string[], old = false): string[] {
  // Written as SQL: the database may be one made by an earlier version, without later columns.
  db.run(sql`INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES (${id}, ${id}, 1, 1, 0)`)
  return texts.map((text, i) => {
    const row = {
      id: `${id}/${i}`,
      sessionId: id,
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      parts: [{ type: 'text' as const, text }]
    }
    if (!old) return appendMessage(db, { ...row, status: 'complete', createdAt: 1 }).id
    const parts = JSON.stringify(row.parts)
    db.run(
      sql`INSERT INTO chat_messages (id, session_id, seq, role, parts, status, created_at, part_count) VALUES (${row.id}, ${id}, ${i + 1}, ${row.role}, ${parts}, 'complete', 1, 1)`
    )
    return row.id
  })
}

const seqs = (db: Db, sessionId: string, query: string) => searchMessages(db, sessionId, query).rows.map((r) => r.seq)

describe('full-text search per chat', () => {
  const tempDir = useTempDir()

  /** The migrations as the previous version shipped them: the index without a chat column. */
  function migrationsBeforeChatColumn(): string {
    const folder = join(tempDir(), 'drizzle-old')
    cpSync(findMigrationsFolder(), folder, { recursive: true })
    const journalFile = join(folder, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
    const end = journal.entries.findIndex((e) => e.tag === '0011_messages_fts_by_chat')
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end) }))
    return folder
  }

  it('keeps every message of an existing database findable after the index is rebuilt, and indexes what comes next', () => {
    const file = join(tempDir(), 'distill.db')
    const old = openDatabase(file, { migrationsFolder: migrationsBeforeChatColumn() })
    chat(
      old.db,
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      ['The staging database listens on port 5433.', 'Noted: staging uses 5433.', 'And production?'],
      true
    )
    chat(
      old.db,
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
      ['Production runs the database on 5432.', 'Thanks, database noted.'],
      true
    )
    old.close()

    const { db, close } = openDatabase(file)
    const [a, b] = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c']
    expect(seqs(db, a, 'databa')).toEqual([1])
    expect(seqs(db, b, 'databa')).toEqual([1, 2])
    expect(searchMessages(db, a, 'staging').rows[0]!.snippet).toContain('\u0002staging\u0003')
    expect(
      searchChats(db, 'database')
        .rows.map((r) => [r.sessionId, r.matches])
        .sort()
    ).toEqual([
      [a, 1],
      [b, 2]
    ])
    // Ids are never words: a piece of a chat id finds nothing.
    expect(searchChats(db, '0190a1b2').rows).toEqual([])
    expect(seqs(db, a, '7e5f')).toEqual([])

    // The triggers follow the new layout: an appended message, an edit, a deletion.
    chat(db, 'c', ['A database in a new chat.'])
    expect(seqs(db, 'c', 'database')).toEqual([1])
    updateMessage(db, `${a}/2`, { parts: [{ type: 'text', text: 'And the production database?' }] })
    expect(seqs(db, a, 'database')).toEqual([1, 3])
    deleteSession(db, b)
    expect(
      searchChats(db, 'database')
        .rows.map((r) => r.sessionId)
        .sort()
    ).toEqual([a, 'c'])
    close()
  })

  it('ranks a common word among its newest matches only, best first, and says the counts are lower bounds', () => {
    const { db, close } = openDatabase(join(tempDir(), 'common.db'))
    const long = 'the boat came back with mackerel and a long story about the tide'
    chat(db, 'old', ['Mackerel, mackerel, mackerel.'])
    chat(db, 'a', [long, long, long])
    chat(db, 'b', [long, 'Mackerel, mackerel.', long])
    // Everything ranked: the old chat's message is the best of all.
    expect(searchChats(db, 'mackerel').rows.map((r) => [r.sessionId, r.matches, r.countIsLowerBound])).toEqual([
      ['old', 1, false],
      ['b', 3, false],
      ['a', 3, false]
    ])
    // Only the newest 4 matches ranked: the best among them first, the old chat left out.
    const newest = searchChats(db, 'mackerel', { ranked: 4 }).rows
    expect(newest.map((r) => [r.sessionId, r.matches, r.countIsLowerBound])).toEqual([
      ['b', 3, true],
      ['a', 1, true]
    ])
    expect(newest[0]!.passages[0]!.snippet).toBe('\u0002Mackerel\u0003, \u0002mackerel\u0003.')

    // The words the typed one begins count while the word alone does not fill the ranked matches.
    chat(db, 'longer', ['Mackerelboats all round.'])
    expect(searchChats(db, 'mackerel').rows.map((r) => r.sessionId)).toContain('longer')
    expect(searchChats(db, 'mackerel', { ranked: 4 }).rows.map((r) => r.sessionId)).not.toContain('longer')
    expect(searchChats(db, 'macker').rows.map((r) => r.sessionId)).toContain('longer')
    close()
  })

  it('tells how many messages a common word is in, beyond the ones ranked, never more than are listed', () => {
    const { db, close } = openDatabase(join(tempDir(), 'common-total.db'))
    chat(db, 'old', ['mackerel at dawn', 'more mackerel', 'mackerel again'])
    chat(db, 'a', ['the boat came back with mackerel', 'a short mackerel'])
    chat(db, 'b', ['mackerel', 'nothing here', 'mackerel pie'])
    const found = searchChats(db, 'mackerel', { ranked: 3 })
    // Ranked: the newest three matches, shorter first; counted: all seven.
    expect(found.rows.map((r) => [r.sessionId, r.matches])).toEqual([
      ['b', 2],
      ['a', 1]
    ])
    expect(found).toMatchObject({ matches: 7, chats: 2, countIsLowerBound: true })
    // Versions set aside and archived chats are never listed: the total leaves out as many as they could hold.
    db.run(sql`UPDATE sessions SET archived = 1 WHERE id = 'old'`)
    expect(searchChats(db, 'mackerel', { ranked: 3 }).matches).toBe(4)
    db.run(sql`UPDATE chat_messages SET hidden_in = 'x' WHERE id = 'a/0'`)
    expect(searchChats(db, 'mackerel', { ranked: 3 }).matches).toBe(3)
    close()
  })

  it('marks only the words a common prefix begins, without merging its doclists for the passages', () => {
    const { db, close } = openDatabase(join(tempDir(), 'common-prefix.db'))
    chat(db, 'c', ['alpine lake, then the alphabet', 'Alphas and alpacas', 'alpine only', 'the Álphorn'])
    const found = searchChats(db, 'alph', { ranked: 2, passages: 3 })
    expect(found.countIsLowerBound).toBe(true)
    expect(found.rows[0]!.passages.map((p) => p.snippet).sort()).toEqual([
      '\u0002Alphas\u0003 and alpacas',
      'the \u0002Álphorn\u0003'
    ])
    // Not common: ranked by bm25 and marked by FTS5 itself, as before.
    expect(searchChats(db, 'alph').rows[0]!.passages[0]!.snippet).toContain('\u0002')
    close()
  })

  it('finds only the chat asked for, whatever its id looks like', () => {
    const { db, close } = openDatabase(join(tempDir(), 'ids.db'))
    // Both ids lose their hyphens to the same key in the index: the chat filter still tells them apart.
    chat(db, 'a-b', ['kiwi one', 'kiwi two'])
    chat(db, 'ab', ['kiwi three'])
    chat(db, 'say "hi"', ['kiwi four'])
    expect(seqs(db, 'a-b', 'kiwi')).toEqual([1, 2])
    expect(searchMessages(db, 'a-b', 'kiwi').total).toBe(2)
    expect(seqs(db, 'ab', 'kiwi')).toEqual([1])
    expect(seqs(db, 'say "hi"', 'kiwi')).toEqual([1])
    expect(seqs(db, 'missing', 'kiwi')).toEqual([])
    // A full page still says how many there are in all.
    expect(searchMessages(db, 'a-b', 'kiwi', 1)).toMatchObject({ rows: [{ seq: 1 }], total: 2 })
    close()
  })

  it('ranks recalled originals within their chat as before: more, rarer words first', () => {
    const { db, close } = openDatabase(join(tempDir(), 'recall.db'))
    chat(db, 'x', [
      'my dentist appointment is on Friday',
      'the dentist said floss',
      'weather is nice',
      'Friday dinner with Sam'
    ])
    chat(db, 'y', ['dentist dentist dentist Friday appointment'])
    const rows = searchSummarized(db, 'x', '"dentist"* OR "appointment"* OR "friday"', { beforeSeq: 10 })
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 4])
    expect(rows.every((r) => r.score < 0)).toBe(true)
    close()
  })

  it('ranks a long chat by its rarer words when others are in most of its messages, and common words alone among the newest summarized', () => {
    const { db, close } = openDatabase(join(tempDir(), 'recall-common.db'))
    // 60 messages say "order"; one old one also names the harbor; the last 10 are not summarized.
    const texts = Array.from({ length: 60 }, (_, i) =>
      i === 3 ? `the order went to the harbor ${i}` : `another order ${i}`
    )
    chat(db, 'long', texts)
    const options = { beforeSeq: 51, commonMatches: 20 }
    const both = searchSummarized(db, 'long', '"order"* OR "harbor"*', options)
    expect(both.map((r) => r.seq)).toEqual([4]) // the rare word decides; "order" alone ranks nothing
    const common = searchSummarized(db, 'long', '"order"*', { ...options, limit: 100 })
    // Only summarized messages, the newest 20 of them.
    expect(common.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 31 + i))
    // Below the bound, the query runs as given.
    const all = searchSummarized(db, 'long', '"order"* OR "harbor"*', { beforeSeq: 51, limit: 100 })
    expect(all).toHaveLength(50)
    expect(all[0]!.seq).toBe(4)
    close()
  })
})
