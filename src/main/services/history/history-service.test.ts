import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { silentLogger } from '../../logger'
import { useTempDir } from '../../../../test/support/temp-dir'

describe('full history and search (FR-6.3)', () => {
  const tempDir = useTempDir()

  it('lists every message with whether the model still sees it, and finds words in summarized ones', async () => {
    const app = createApp({ dbFile: join(tempDir(), 'h.db'), mode: 'browser', log: silentLogger, env: {} })
    const session = app.services.sessions.create()
    await app.services.chat.append(session.id, {
      role: 'user',
      parts: [{ type: 'text', text: 'The staging database listens on port 5433.' }]
    })
    await app.services.chat.append(session.id, {
      role: 'assistant',
      parts: [{ type: 'text', text: 'Noted: staging uses 5433, production 5432.' }]
    })
    await app.services.compression.run(session.id, { summarizer: 'truncate' })
    await app.services.chat.append(session.id, {
      role: 'user',
      parts: [{ type: 'text', text: 'Which databases are running?' }]
    })

    const list = await app.router.call('history.list', { sessionId: session.id })
    expect(list).toMatchObject({ ok: true, data: { summaryCutoffSeq: 2 } })
    const messages = (list as { data: { messages: Array<{ seq: number; inContext: boolean }> } }).data.messages
    expect(messages.map((m) => [m.seq, m.inContext])).toEqual([
      [1, false],
      [2, false],
      [3, true]
    ])

    const found = app.services.history.search(session.id, 'databa')
    expect(found.total).toBe(2)
    expect(found.hits.map((h) => [h.seq, h.inContext])).toEqual([
      [1, false],
      [3, true]
    ])
    expect(found.hits[0]!.snippet).toContain('\u0002database\u0003')
    // Quotes and operators are taken literally, never as FTS syntax errors.
    expect(app.services.history.search(session.id, '"5433 (').total).toBe(2)
    expect(app.services.history.search(session.id, 'staging NEAR(').total).toBe(0)
    expect(await app.router.call('history.search', { sessionId: session.id, query: '  ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
    await app.close()
  })
})
