import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../../../../test/support/temp-dir'
import { openDatabase, type Db } from '../../client'
import { countPathUpTo, pathSeqBefore, readMessagePage, seqOfMessage, type PageCursor } from './message-page-repo'
import { setAsideFrom } from './message-versions-repo'
import { appendMessage, listMessages } from './messages-repo'

/** A chat of `n` messages (seq 1…n) written as the app writes them. */
function chat(db: Db, id: string, n: number): void {
  db.run(sql`INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES (${id}, ${id}, 1, 1, 0)`)
  db.transaction((tx) => {
    for (let i = 1; i <= n; i++) {
      appendMessage(tx, {
        id: `${id}/${i}`,
        sessionId: id,
        role: i % 2 ? 'user' : 'assistant',
        parts: [{ type: 'text', text: `message ${i}` }],
        status: 'complete',
        createdAt: i
      })
    }
  })
}

const seqs = (page: { messages: Array<{ seq: number }> }) => page.messages.map((m) => m.seq)
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe('pages of a conversation', () => {
  const tempDir = useTempDir()
  const open = () => openDatabase(join(tempDir(), 'distill.db'))

  it('reads the newest page, then older and newer pages from a seq, with whether there is more', () => {
    const { db, close } = open()
    chat(db, 'a', 25)
    chat(db, 'other', 30)
    const newest = readMessagePage(db, 'a', {}, 10)
    expect(seqs(newest)).toEqual(range(16, 25))
    expect(newest).toMatchObject({ hasOlder: true, hasNewer: false })
    expect(newest.messages.every((m) => m.sessionId === 'a')).toBe(true)

    const older = readMessagePage(db, 'a', { before: 16 }, 10)
    expect(seqs(older)).toEqual(range(6, 15))
    expect(older).toMatchObject({ hasOlder: true, hasNewer: true })
    const oldest = readMessagePage(db, 'a', { before: 6 }, 10)
    expect(seqs(oldest)).toEqual(range(1, 5))
    expect(oldest).toMatchObject({ hasOlder: false, hasNewer: true })

    const newer = readMessagePage(db, 'a', { after: 5 }, 10)
    expect(seqs(newer)).toEqual(range(6, 15))
    expect(newer).toMatchObject({ hasOlder: true, hasNewer: true })
    expect(readMessagePage(db, 'a', { after: 15 }, 10)).toMatchObject({ hasOlder: true, hasNewer: false })
    // A full last page still knows there is nothing after it.
    expect(readMessagePage(db, 'a', { after: 0 }, 25)).toMatchObject({ hasOlder: false, hasNewer: false })
    close()
  })

  it('puts the message asked for in the middle of its page, and clamps at either end', () => {
    const { db, close } = open()
    chat(db, 'a', 100)
    const middle = readMessagePage(db, 'a', { aroundSeq: 50 }, 10)
    expect(seqs(middle)).toEqual(range(45, 54))
    expect(middle).toMatchObject({ hasOlder: true, hasNewer: true })
    const start = readMessagePage(db, 'a', { aroundSeq: 2 }, 10)
    expect(seqs(start)).toEqual(range(1, 6))
    expect(start).toMatchObject({ hasOlder: false, hasNewer: true })
    const end = readMessagePage(db, 'a', { aroundSeq: 99 }, 10)
    expect(seqs(end)).toEqual(range(94, 100))
    expect(end).toMatchObject({ hasOlder: true, hasNewer: false })
    expect(seqOfMessage(db, 'a', 'a/42')).toBe(42)
    expect(seqOfMessage(db, 'other', 'a/42')).toBeUndefined()
    close()
  })

  it('reads the version in use only: set-aside turns are skipped, and pages walked back rebuild the conversation', () => {
    const { db, close } = open()
    chat(db, 'a', 40)
    // Messages 21… set aside as an earlier version; a new version of message 21 follows at seq 41.
    setAsideFrom(db, 'a', { id: 'a/21', seq: 21 })
    appendMessage(db, {
      id: 'a/v2',
      sessionId: 'a',
      role: 'user',
      parts: [{ type: 'text', text: 'edited' }],
      status: 'complete',
      createdAt: 41
    })
    const newest = readMessagePage(db, 'a', {}, 5)
    expect(seqs(newest)).toEqual([17, 18, 19, 20, 41])
    expect(pathSeqBefore(db, 'a', 21)).toBe(20)
    // Around a set-aside message: the path's messages either side of its seq.
    expect(seqs(readMessagePage(db, 'a', { aroundSeq: 30 }, 4))).toEqual([19, 20, 41])

    const walked: number[] = []
    let page = readMessagePage(db, 'a', {}, 7)
    walked.unshift(...seqs(page))
    while (page.hasOlder) {
      page = readMessagePage(db, 'a', { before: page.messages[0]!.seq }, 7)
      walked.unshift(...seqs(page))
    }
    expect(walked).toEqual(listMessages(db, 'a').map((m) => m.seq))
    expect(countPathUpTo(db, 'a', 30)).toBe(20)
    expect(countPathUpTo(db, 'a', 0)).toBe(0)
    close()
  })

  it('answers an empty chat with an empty page', () => {
    const { db, close } = open()
    chat(db, 'empty', 0)
    const cursors: PageCursor[] = [{}, { before: 10 }, { after: 0 }, { aroundSeq: 1 }]
    for (const cursor of cursors) {
      expect(readMessagePage(db, 'empty', cursor, 10)).toEqual({ messages: [], hasOlder: false, hasNewer: false })
    }
    close()
  })

  it('reads a page from the (session, seq) index: its cost follows the page, not the chat', () => {
    const { db, close, sqlite } = open()
    chat(db, 'big', 5_000)
    const plan = (query: string) =>
      sqlite
        .prepare(`EXPLAIN QUERY PLAN ${query}`)
        .all('big', 2500)
        .map((r) => (r as { detail: string }).detail)
        .join(' | ')
    // The query drizzle builds for an older page, in SQLite's words.
    const older = plan(
      'SELECT * FROM chat_messages WHERE session_id = ? AND hidden_in IS NULL AND seq < ? ORDER BY seq DESC LIMIT 201'
    )
    expect(older).toMatch(
      /SEARCH chat_messages USING INDEX chat_messages_(session_seq|context)_idx \(session_id=\? AND seq<\?\)/
    )
    expect(older).not.toMatch(/TEMP B-TREE/)

    // And in time: a page deep in a 5,000-message chat takes about what a page of a small chat takes.
    chat(db, 'small', 300)
    const time = (sessionId: string, cursor: Parameters<typeof readMessagePage>[2]) => {
      const t0 = performance.now()
      for (let i = 0; i < 20; i++) readMessagePage(db, sessionId, cursor, 200)
      return performance.now() - t0
    }
    time('big', {})
    const deep = time('big', { aroundSeq: 2_500 })
    const small = time('small', { aroundSeq: 150 })
    expect(deep).toBeLessThan(small * 4 + 20)
    close()
  })
})
