import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../../../../test/support/temp-dir'
import { openDatabase, type Db } from '../../client'
import { blockTotals } from './count-blocks-repo'
import { findMessage, historyTotals, storeCounts } from './messages-repo'

const byCounter = <T extends { counter: string | null }>(groups: T[]) =>
  [...groups].sort((a, b) => String(a.counter).localeCompare(String(b.counter)))

/** A chat of `n` messages over several blocks, some never counted, some for another counter. */
function chat(db: Db, id: string, n: number): void {
  db.run(sql`INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES (${id}, ${id}, 1, 1, 0)`)
  db.run(sql`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})
    INSERT INTO chat_messages (id, session_id, seq, role, parts, status, token_count, token_counter, created_at, part_count)
    SELECT ${id} || '/' || i, ${id}, i, CASE i % 2 WHEN 1 THEN 'user' ELSE 'assistant' END, '[]', 'complete',
           CASE WHEN i % 7 = 0 THEN NULL ELSE i % 50 END,
           CASE WHEN i % 7 = 0 THEN NULL WHEN i % 3 = 0 THEN 'estimate:anthropic' ELSE 'tiktoken:o200k_base' END, i, 1
      FROM s`)
}

const write = fc.oneof(
  fc.record({ kind: fc.constant('count' as const), seq: fc.nat(3000), tokens: fc.nat(90), other: fc.boolean() }),
  fc.record({ kind: fc.constant('hide' as const), seq: fc.nat(3000), hidden: fc.boolean() }),
  fc.record({ kind: fc.constant('status' as const), seq: fc.nat(3000), complete: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), seq: fc.nat(3000) }),
  fc.record({ kind: fc.constant('append' as const), tokens: fc.nat(90) })
)
type Write = typeof write extends fc.Arbitrary<infer T> ? T : never

function apply(db: Db, id: string, w: Write): void {
  if (w.kind === 'count')
    db.run(sql`UPDATE chat_messages SET token_count = ${w.tokens},
      token_counter = ${w.other ? 'estimate:gemini' : 'tiktoken:o200k_base'} WHERE session_id = ${id} AND seq = ${w.seq}`)
  else if (w.kind === 'hide')
    db.run(
      sql`UPDATE chat_messages SET hidden_in = ${w.hidden ? 'v' : null} WHERE session_id = ${id} AND seq = ${w.seq}`
    )
  else if (w.kind === 'status')
    db.run(
      sql`UPDATE chat_messages SET status = ${w.complete ? 'complete' : 'aborted'} WHERE session_id = ${id} AND seq = ${w.seq}`
    )
  else if (w.kind === 'delete') db.run(sql`DELETE FROM chat_messages WHERE session_id = ${id} AND seq = ${w.seq}`)
  else
    db.run(sql`INSERT INTO chat_messages (id, session_id, seq, role, parts, status, token_count, token_counter, created_at, part_count)
      SELECT ${id} || '/n' || (max(seq) + 1), ${id}, max(seq) + 1, 'user', '[]', 'complete', ${w.tokens}, 'tiktoken:o200k_base', 0, 1
        FROM chat_messages WHERE session_id = ${id}`)
}

describe('token count blocks', () => {
  const tempDir = useTempDir()

  it('sum what the messages sum, for any range, after any writes, for new chats and chats from before the blocks', () => {
    const { db, close } = openDatabase(join(tempDir(), 'distill.db'))
    chat(db, 'new', 2600)
    chat(db, 'old', 2600)
    // A chat written before the blocks existed: no marker, no sums until first read.
    db.run(sql`DELETE FROM chat_count_blocks WHERE session_id = 'old'`)
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 12 }),
        fc.nat(3100),
        fc.option(fc.nat(3100), { nil: undefined }),
        (writes, after, span) => {
          for (const id of ['new', 'old']) {
            for (const w of writes) apply(db, id, w)
            const before = span === undefined ? Infinity : after + span
            expect(byCounter(blockTotals(db, id, after, before))).toEqual(
              byCounter(historyTotals(db, id, after, before))
            )
          }
        }
      ),
      { numRuns: 150 }
    )
    close()
  })

  it('are read from a few rows, not from every message, once a chat is marked', () => {
    const { db, close } = openDatabase(join(tempDir(), 'distill.db'))
    chat(db, 'long', 20_000)
    const rows = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM chat_count_blocks WHERE session_id = 'long'`)!
    // ~20 blocks × 3 counters (null, o200k, estimate) and the marker.
    expect(rows.n).toBeLessThan(70)
    expect(blockTotals(db, 'long', 0, Infinity)).toEqual(
      expect.arrayContaining(historyTotals(db, 'long', 0, Infinity).map((g) => expect.objectContaining(g)))
    )
    close()
  })

  it('are not moved by a recount over a message counted again meanwhile', () => {
    const { db, close } = openDatabase(join(tempDir(), 'distill.db'))
    chat(db, 'c', 10)
    const read = findMessage(db, 'c/1')!
    // Counted again after the recount read it (the message was edited, or counted for the next model).
    db.run(sql`UPDATE chat_messages SET token_count = 77, token_counter = 'tiktoken:o200k_base' WHERE id = 'c/1'`)
    storeCounts(db, 'c', [
      {
        id: 'c/1',
        from: { counter: read.tokenCounter, tokens: read.tokenCount },
        to: { counter: 'estimate:anthropic', tokens: 5 }
      },
      {
        id: 'c/2',
        from: { counter: 'tiktoken:o200k_base', tokens: 2 },
        to: { counter: 'estimate:anthropic', tokens: 9 }
      }
    ])
    expect(findMessage(db, 'c/1')).toMatchObject({ tokenCount: 77, tokenCounter: 'tiktoken:o200k_base' })
    expect(findMessage(db, 'c/2')).toMatchObject({ tokenCount: 9, tokenCounter: 'estimate:anthropic' })
    expect(byCounter(blockTotals(db, 'c', 0, Infinity))).toEqual(byCounter(historyTotals(db, 'c', 0, Infinity)))
    close()
  })
})
