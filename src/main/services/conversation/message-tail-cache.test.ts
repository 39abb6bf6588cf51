import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useTestApps } from '../../../../test/support/test-apps'
import { restoreVersion, setAsideFrom } from '../../db/repositories/messages/message-versions-repo'
import {
  appendMessage,
  findMessages,
  listMessages,
  listNewestHistoryHeads,
  storeCounts,
  updateMessage
} from '../../db/repositories/messages/messages-repo'
import type { ChatMessage } from '../../../shared/domain/chat-message'
import { createMessageTailCache } from './message-tail-cache'

/** What a chat goes through between two requests. */
const write = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    role: fc.constantFrom('user' as const, 'assistant' as const),
    streaming: fc.boolean()
  }),
  fc.record({ kind: fc.constant('finish' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('recount' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('new-count' as const), at: fc.nat(), also: fc.nat() }),
  fc.record({ kind: fc.constant('fail' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('set-aside' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('restore' as const) }),
  fc.record({ kind: fc.constant('other-connection' as const), at: fc.nat() })
)
const request = fc.record({ after: fc.nat({ max: 80 }), before: fc.option(fc.nat({ max: 90 }), { nil: undefined }) })
const step = fc.record({
  writes: fc.array(write, { maxLength: 6 }),
  requests: fc.array(request, { minLength: 1, maxLength: 3 })
})

describe('the kept newest end of a chat', () => {
  const openApp = useTestApps()

  it('walks exactly what the database holds, whatever was written between requests', () => {
    const app = openApp()
    const { db } = app.database
    let n = 0
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 60 }),
        (steps, initial) => {
          const sessionId = app.services.sessions.create(`chat ${n++}`).id
          const asideHeads: string[] = []
          let text = 0
          const cache = createMessageTailCache(db)
          // As the app does, a message is held by the cache once written (usage-service.ts, messageWritten).
          const held = <M extends ChatMessage | undefined>(m: M): M => {
            if (m && m.status !== 'streaming') cache.hold(m)
            return m
          }
          const append = (role: 'user' | 'assistant', streaming = false) =>
            held(
              appendMessage(db, {
                id: `${sessionId}-${text++}`,
                sessionId,
                role,
                parts: [{ type: 'text', text: `message ${text}` }],
                status: streaming ? 'streaming' : 'complete',
                createdAt: text,
                tokenCount: 5,
                tokenCounter: 'local:o200k_base'
              })
            )
          for (let i = 0; i < initial; i++) append(i % 2 ? 'assistant' : 'user')
          for (const { writes, requests } of steps) {
            for (const w of writes) {
              const path = listMessages(db, sessionId)
              const target = 'at' in w && path.length ? path[w.at % path.length]! : undefined
              if (w.kind === 'append') append(w.role, w.streaming)
              else if (w.kind === 'finish' && target) updateMessage(db, target.id, { status: 'complete' })
              else if (w.kind === 'recount' && target)
                held(
                  updateMessage(db, target.id, {
                    tokenCount: target.tokenCount! + 1,
                    parts: [{ type: 'text', text: `recounted ${target.seq}` }]
                  })
                )
              else if (w.kind === 'new-count' && target) {
                // Counts only, as a recount for another model stores them (two messages at once).
                const other = path[w.also % path.length]!
                storeCounts(
                  db,
                  sessionId,
                  [target, other].map((m) => ({
                    id: m.id,
                    from: { counter: m.tokenCounter, tokens: m.tokenCount },
                    to: {
                      counter: m.tokenCounter === 'local:cl100k_base' ? 'local:o200k_base' : 'local:cl100k_base',
                      tokens: (m.tokenCount ?? 0) + 2
                    }
                  }))
                )
              } else if (w.kind === 'fail' && target) updateMessage(db, target.id, { status: 'error' })
              else if (w.kind === 'set-aside' && target) {
                setAsideFrom(db, sessionId, target)
                asideHeads.push(target.id)
              } else if (w.kind === 'restore' && asideHeads.length) {
                const path = listMessages(db, sessionId)
                if (path.length) setAsideFrom(db, sessionId, path[0]!)
                restoreVersion(db, sessionId, asideHeads.pop()!)
              } else if (w.kind === 'other-connection' && target) {
                const other = new Database(app.database.file)
                other.prepare('UPDATE chat_messages SET token_count = token_count + 7 WHERE id = ?').run(target.id)
                other.close()
              }
            }
            for (const r of requests) {
              const before = r.before ?? Number.POSITIVE_INFINITY
              const walked = [...cache.newest(sessionId, r.after, before)]
              const truth = listNewestHistoryHeads(db, sessionId, r.after, before, 1_000_000)
              expect(walked).toEqual(truth)
              const ids = truth.slice(0, 5).map((h) => h.id)
              // What a request sends of each row: its parts, with what identifies it.
              const parts = [...findMessages(db, ids)].map(([id, m]) => [
                id,
                { id, sessionId: m.sessionId, seq: m.seq, role: m.role, parts: m.parts }
              ])
              expect(cache.rows(sessionId, ids)).toEqual(new Map(parts as Array<[string, unknown]>))
            }
          }
        }
      ),
      { numRuns: 60 }
    )
  })

  it('serves a message it was given as written, without reading it back', () => {
    const app = openApp()
    const { db } = app.database
    const sessionId = app.services.sessions.create('held').id
    const cache = createMessageTailCache(db)
    const written = appendMessage(db, {
      id: 'long',
      sessionId,
      role: 'user',
      parts: [{ type: 'text', text: 'a\n'.repeat(200_000) }],
      status: 'complete',
      createdAt: 1
    })
    cache.hold(written)
    const row = cache.rows(sessionId, ['long']).get('long')!
    expect(row.parts).toBe(written.parts)
    // Rewritten since: read again.
    updateMessage(db, 'long', { parts: [{ type: 'text', text: 'short now' }] })
    expect(cache.rows(sessionId, ['long']).get('long')!.parts).toEqual([{ type: 'text', text: 'short now' }])
  })

  it('reads only what was written since the last request', () => {
    const app = openApp()
    const { db } = app.database
    const sessionId = app.services.sessions.create('long').id
    db.transaction((tx) => {
      for (let i = 0; i < 2_000; i++)
        appendMessage(tx, {
          id: `m${i}`,
          sessionId,
          role: i % 2 ? 'assistant' : 'user',
          parts: [{ type: 'text', text: `m${i}` }],
          status: 'complete',
          createdAt: i,
          tokenCount: 5,
          tokenCounter: 'local:o200k_base'
        })
    })
    const cache = createMessageTailCache(db)
    const take = (k: number) => {
      const out = []
      for (const h of cache.newest(sessionId, 0, Number.POSITIVE_INFINITY)) if (out.push(h) === k) break
      return out
    }
    const first = take(600)
    expect(first.at(-1)!.id).toBe('m1400')
    appendMessage(db, {
      id: 'new',
      sessionId,
      role: 'user',
      parts: [{ type: 'text', text: 'new' }],
      status: 'complete',
      createdAt: 0,
      tokenCount: 5,
      tokenCounter: 'local:o200k_base'
    })
    const again = take(601)
    expect(again[0]!.id).toBe('new')
    // The 600 kept heads are the very objects read before: nothing was read again but the new one.
    again.slice(1).forEach((h, i) => expect(h).toBe(first[i]))
    // A change to an old message drops what follows it, and only that.
    updateMessage(db, 'm1500', { tokenCount: 9 })
    const third = take(601)
    expect(third.find((h) => h.id === 'm1500')!.tokenCount).toBe(9)
    expect(third.at(-1)).toBe(first.at(-1))
  })
})
