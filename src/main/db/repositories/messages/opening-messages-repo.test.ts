import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { messageText, type MessagePart } from '../../../../shared/domain/chat-message'
import { useTempDir } from '../../../../../test/support/temp-dir'
import { openDatabase } from '../../client'
import { appendMessage } from './messages-repo'
import { openingMessages } from './opening-messages-repo'

describe('openingMessages', () => {
  const tempDir = useTempDir()

  it('gives the start of each message on the path as messageText would, cut inside SQLite', () => {
    const { db, close } = openDatabase(join(tempDir(), 'd.db'))
    db.run(sql`INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES ('c', 'c', 1, 1, 0)`)
    const textPart = fc
      .string({ unit: 'grapheme-ascii', maxLength: 40 })
      .map((text) => ({ type: 'text' as const, text }))
    const file = fc.constant({ type: 'attachment' as const, filename: 'a.png', mediaType: 'image/png', size: 3 })
    let n = 0
    fc.assert(
      fc.property(
        fc.array(fc.oneof(textPart, file), { maxLength: 5 }),
        fc.integer({ min: 0, max: 60 }),
        (parts, chars) => {
          const written = appendMessage(db, {
            id: `m${++n}`,
            sessionId: 'c',
            role: 'user',
            parts: parts as MessagePart[],
            status: 'complete',
            createdAt: n
          })
          const opening = openingMessages(db, 'c', written.seq + 1, chars).at(-1)!
          expect(opening).toEqual({
            seq: written.seq,
            role: 'user',
            status: 'complete',
            excerpt: messageText(written.parts).slice(0, chars)
          })
        }
      ),
      { numRuns: 60 }
    )
    // A version set aside is not on the path.
    db.run(sql`UPDATE chat_messages SET hidden_in = 'x' WHERE seq = 1`)
    expect(openingMessages(db, 'c', 3, 10).map((m) => m.seq)).toEqual([2])
    close()
  })
})
