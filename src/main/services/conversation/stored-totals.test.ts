import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useTestApps } from '../../../../test/support/test-apps'
import { appendMessage, listMessages, storeCounts, updateMessage } from '../../db/repositories/messages/messages-repo'
import { resolveModel } from '../../models/catalog'
import { createStoredTotals } from './stored-totals'

const write = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), tokens: fc.nat({ max: 90 }), streaming: fc.boolean() }),
  fc.record({ kind: fc.constant('new-count' as const), at: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }) }),
  fc.record({ kind: fc.constant('fail' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('finish' as const), at: fc.nat() })
)

describe("a chat's totals from stored counts", () => {
  const openApp = useTestApps()

  it('stay what a fresh read finds while a recount stores new counts between requests', () => {
    const app = openApp()
    const { db } = app.database
    const spec = resolveModel('openai', 'gpt-4o')!
    let n = 0
    fc.assert(
      fc.property(
        fc.array(fc.record({ writes: fc.array(write, { maxLength: 5 }), after: fc.nat({ max: 40 }) }), {
          minLength: 1,
          maxLength: 10
        }),
        fc.integer({ min: 0, max: 400 }),
        (steps, initial) => {
          const session = app.services.sessions.create(`chat ${n++}`)
          let text = 0
          const append = (tokens: number, streaming = false) =>
            appendMessage(db, {
              id: `${session.id}-${text++}`,
              sessionId: session.id,
              role: text % 2 ? 'assistant' : 'user',
              parts: [{ type: 'text', text: `message ${text}` }],
              status: streaming ? 'streaming' : 'complete',
              createdAt: text,
              tokenCount: tokens,
              tokenCounter: 'local:cl100k_base'
            })
          for (let i = 0; i < initial; i++) append(i % 50)
          const kept = createStoredTotals(db, { staleRatio: () => 1.25 }, () => undefined)
          for (const { writes, after } of steps) {
            for (const w of writes) {
              const path = listMessages(db, session.id)
              const at = (i: number) => path[i % path.length]!
              if (w.kind === 'append') append(w.tokens, w.streaming)
              else if (!path.length) continue
              else if (w.kind === 'new-count')
                storeCounts(
                  db,
                  session.id,
                  w.at.map(at).map((m, i) => ({
                    id: m.id,
                    from: { counter: m.tokenCounter, tokens: m.tokenCount },
                    to: { counter: i % 2 ? 'local:o200k_base' : 'local:cl100k_base', tokens: (m.tokenCount ?? 0) + i }
                  }))
                )
              else updateMessage(db, at(w.at).id, { status: w.kind === 'fail' ? 'error' : 'complete' })
            }
            const fresh = createStoredTotals(db, { staleRatio: () => 1.25 }, () => undefined)
            expect(kept(session, spec, after, Number.POSITIVE_INFINITY)).toEqual(
              fresh(session, spec, after, Number.POSITIVE_INFINITY)
            )
          }
        }
      ),
      { numRuns: 40 }
    )
  })
})
