import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from './app'
import { silentLogger } from './logger'
import { manualClock, useTempDir } from '../../test/support/temp-dir'

function openApp(dbFile: string, clock = manualClock()) {
  return createApp({ dbFile, mode: 'browser', log: silentLogger, clock, validateOutput: true, env: {} })
}

describe('sessions and messages on a real SQLite file', () => {
  const tempDir = useTempDir()

  it('keeps chats and messages across a restart, most recent chat first', async () => {
    const file = join(tempDir(), 'distill.db')
    const clock = manualClock()
    const app = openApp(file, clock)
    const first = app.services.sessions.create('Trip planning')
    clock.advance(1000)
    const second = app.services.sessions.create()
    clock.advance(1000)
    app.services.chat.send(first.id, 'Book the train to Lyon')
    clock.advance(1000)
    app.services.chat.send(first.id, 'And a hotel near the station')
    await app.close()

    const reopened = openApp(file, clock)
    const list = await reopened.router.call('sessions.list', {})
    expect(list.ok).toBe(true)
    const { sessions } = (
      list as {
        data: { sessions: Array<{ id: string; title: string; messageCount: number; lastMessagePreview: string }> }
      }
    ).data
    expect(sessions.map((s) => s.id)).toEqual([first.id, second.id])
    expect(sessions[0]).toMatchObject({
      title: 'Trip planning',
      messageCount: 4,
      lastMessagePreview: 'And a hotel near the station'
    })
    const messages = reopened.services.chat.messages(first.id)
    expect(messages.map((m) => [m.seq, m.role, m.parts, m.status, m.error?.code])).toEqual([
      [1, 'user', [{ type: 'text', text: 'Book the train to Lyon' }], 'complete', undefined],
      // No key is configured: the reply fails with a message that says what to do.
      [2, 'assistant', [], 'error', 'not_configured'],
      [3, 'user', [{ type: 'text', text: 'And a hotel near the station' }], 'complete', undefined],
      [4, 'assistant', [], 'error', 'not_configured']
    ])
    await reopened.close()
  })

  it('titles a new chat from its first message', async () => {
    const app = openApp(join(tempDir(), 'distill.db'))
    const session = app.services.sessions.create()
    expect(session.title).toBe('New chat')
    app.services.chat.send(
      session.id,
      'How do I rotate an API key without downtime in our Kubernetes cluster setup?\nMore.'
    )
    expect(app.services.sessions.get(session.id).title).toBe('How do I rotate an API key without downtime in our…')
    await app.close()
  })

  it('searches chats by title, treating % and _ literally', async () => {
    const app = openApp(join(tempDir(), 'distill.db'))
    app.services.sessions.create('Budget 50% cut')
    app.services.sessions.create('Budget review')
    app.services.sessions.create('snake_case names')
    expect(
      app.services.sessions
        .list('budget')
        .map((s) => s.title)
        .sort()
    ).toEqual(['Budget 50% cut', 'Budget review'])
    expect(app.services.sessions.list('50%').map((s) => s.title)).toEqual(['Budget 50% cut'])
    expect(app.services.sessions.list('e_c').map((s) => s.title)).toEqual(['snake_case names'])
    await app.close()
  })

  it('renames and deletes a chat with its messages and their search index', async () => {
    const app = openApp(join(tempDir(), 'distill.db'))
    const session = app.services.sessions.create()
    app.services.chat.send(session.id, 'the zebra crossing')
    const renamed = await app.router.call('sessions.rename', { id: session.id, title: '  Zebras  ' })
    expect(renamed).toMatchObject({ ok: true, data: { title: 'Zebras' } })
    const fts = () =>
      app.database.sqlite.prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebra'").get()
    expect(fts()).toEqual({ n: 1 })
    expect(await app.router.call('sessions.delete', { id: session.id })).toEqual({ ok: true, data: { id: session.id } })
    expect(app.database.sqlite.prepare('SELECT count(*) AS n FROM chat_messages').get()).toEqual({ n: 0 })
    expect(fts()).toEqual({ n: 0 })
    expect(await app.router.call('sessions.get', { id: session.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    await app.close()
  })

  it('gives seq numbers that only go up, per chat', async () => {
    const app = openApp(join(tempDir(), 'distill.db'))
    const a = app.services.sessions.create('a')
    const b = app.services.sessions.create('b')
    const seqs: number[] = []
    for (const s of [a, b, a, a, b]) seqs.push((await app.services.chat.send(s.id, 'x')).message.seq)
    // Each send stores the user's message and the reply's row.
    expect(seqs).toEqual([1, 1, 3, 5, 3])
    await app.close()
  })

  it('refuses an empty or oversized message and stores nothing', async () => {
    const app = openApp(join(tempDir(), 'distill.db'))
    const session = app.services.sessions.create()
    const empty = await app.router.call('chat.send', { sessionId: session.id, text: '   ' })
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Message cannot be empty' } })
    const huge = await app.router.call('chat.send', { sessionId: session.id, text: 'x'.repeat(1_000_001) })
    expect(huge).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/too long/) }
    })
    expect(app.services.chat.messages(session.id)).toEqual([])
    await app.close()
  })

  it('validates settings, persists them, and falls back from a bad stored value', async () => {
    const file = join(tempDir(), 'distill.db')
    const app = openApp(file)
    const bad = await app.router.call('settings.update', { thresholdPercent: 120 })
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', issues: [{ path: ['thresholdPercent'], message: 'At most 99%' }] }
    })
    const good = await app.router.call('settings.update', { thresholdPercent: 90, strategy: 'tiered' })
    expect(good).toMatchObject({ ok: true, data: { thresholdPercent: 90, strategy: 'tiered', retentionTokens: 1000 } })
    app.database.sqlite.prepare("UPDATE settings SET value_json = '\"lots\"' WHERE key = 'thresholdPercent'").run()
    await app.close()

    const reopened = openApp(file)
    expect(reopened.services.settings.get()).toMatchObject({ thresholdPercent: 95, strategy: 'tiered' })
    expect(reopened.info().warnings).toEqual([expect.stringMatching(/"thresholdPercent" was invalid/)])
    await reopened.close()
  })
})
