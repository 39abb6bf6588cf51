import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_MESSAGE_CHARS } from '../../../shared/domain/chat-message'
import { createApp } from '../../app'
import { silentLogger } from '../../logger'
import { spawnTs } from '../../../../test/support/child-process'
import { runCli } from '../../../../test/support/run-cli'
import { useTempDir } from '../../../../test/support/temp-dir'
import { checkChatIntegrity } from '../../db/repositories/chat-integrity'
import { getEncoder } from '../../tokens/encoders'
import { countMessage } from '../../tokens/message-tokens'
import { importChats } from './import-chats'

const openApp = (dbFile: string) => createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })

describe('distill import', () => {
  const tempDir = useTempDir()
  afterEach(() => vi.restoreAllMocks())

  function files() {
    const dir = tempDir()
    const write = (name: string, data: unknown) => {
      const file = join(dir, name)
      writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data))
      return file
    }
    return { dbFile: join(dir, 'distill.db'), write }
  }

  async function importJson(dbFile: string, file: string, ...flags: string[]) {
    return JSON.parse(await runCli('--db', dbFile, 'import', file, '--json', ...flags)) as {
      sessions: Array<{ id: string; title: string; messages: number; systemPrompt: boolean }>
      skipped: Array<{ title: string; reason: string }>
    }
  }

  it('writes each chat whole or not at all when the process is killed mid-import', async () => {
    const { dbFile } = files()
    const total = 20_000
    const child = spawnTs('test/support/import-child.ts', [dbFile, String(total)])
    await child.line('writing')
    child.child.kill('SIGKILL')
    expect((await child.exited).signal).toBe('SIGKILL')

    const db = new Database(dbFile)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const sessions = db
      .prepare('SELECT (SELECT count(*) FROM chat_messages m WHERE m.session_id = s.id) AS n FROM sessions s')
      .all() as Array<{ n: number }>
    db.close()
    // Killed while the chat was being written: it is there whole, or not at all.
    expect([[], [{ n: total }]]).toContainEqual(sessions)
  }, 60_000)

  it('writes each message once, counted for the chat model, in order, and reports progress as it writes', async () => {
    const { dbFile } = files()
    const app = openApp(dbFile)
    // Every UPDATE of a message is recorded: an import has none.
    app.database.sqlite.exec(`CREATE TEMP TABLE updates (n INTEGER);
      CREATE TEMP TRIGGER count_updates AFTER UPDATE ON chat_messages BEGIN INSERT INTO updates VALUES (1); END;`)
    const total = 6_000
    const messages = Array.from({ length: total }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      parts: [{ type: 'text' as const, text: `Message ${i}: the ${i % 3 ? 'harbour' : 'lighthouse'} at dusk.` }]
    }))
    const progress: number[] = []
    const out = await importChats(app, [{ title: 'Long', messages }], {
      source: 'long.jsonl',
      onProgress: (_phase, done) => progress.push(done)
    })
    const id = out.sessions[0]!.id
    expect(app.database.sqlite.prepare('SELECT count(*) AS n FROM updates').get()).toEqual({ n: 0 })
    const stored = app.services.chat.messages(id)
    expect(stored.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1))
    const spec = app.services.models.spec(
      app.services.sessions.get(id).provider!,
      app.services.sessions.get(id).modelId!
    )
    expect(stored.map((m) => [m.tokenCount, m.tokenCounter])).toEqual(
      messages.map((m) => {
        const c = countMessage(m, spec)
        return [c.tokens, c.counter]
      })
    )
    expect(progress.at(-1)).toBe(total)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    // The new chat is searchable at once.
    expect(app.services.history.search(id, 'lighthouse').total).toBe(total / 3)
    expect(checkChatIntegrity(app.database.db, id)).toEqual([])
    await app.close()
  })

  it('refuses a message longer than the composer allows, before writing anything', async () => {
    const { dbFile, write } = files()
    const file = write(
      'big.jsonl',
      [
        JSON.stringify({ role: 'user', content: 'Summarize this log' }),
        JSON.stringify({ role: 'user', content: 'x'.repeat(MAX_MESSAGE_CHARS + 1) })
      ].join('\n')
    )
    await expect(runCli('--db', dbFile, 'import', file)).rejects.toThrow(
      'Message 2: Message is too long (1,000,000 characters at most). Nothing was imported.'
    )
    const app = openApp(dbFile)
    expect(app.services.sessions.list()).toEqual([])
    await app.close()
  })

  it('falls back to an estimate when the tokenizer fails, and finishes', async () => {
    const { dbFile, write } = files()
    const file = write(
      'chat.jsonl',
      [
        JSON.stringify({ role: 'user', content: 'What is the capital of Norway?' }),
        JSON.stringify({ role: 'assistant', content: 'Oslo.' })
      ].join('\n')
    )
    const encoder = getEncoder('o200k_base')
    const borrowed = () => {
      throw new Error('attempted to take ownership of Rust value while it was borrowed')
    }
    vi.spyOn(encoder, 'count').mockImplementation(borrowed)
    vi.spyOn(encoder, 'free').mockImplementation(borrowed)
    const out = await importJson(dbFile, file)
    vi.restoreAllMocks()
    const app = openApp(dbFile)
    const messages = app.services.chat.messages(out.sessions[0]!.id)
    expect(messages.map((m) => [m.tokenCounter, m.tokenCount! > 0])).toEqual([
      ['chars/4', true],
      ['chars/4', true]
    ])
    await app.close()
  })

  it('says so when the same conversation is imported again, and imports it with --again', async () => {
    const { dbFile, write } = files()
    const file = write(
      'trip.jsonl',
      [
        JSON.stringify({ role: 'user', content: 'Plan a weekend in Lyon' }),
        JSON.stringify({ role: 'assistant', content: 'Day one: the old town.' })
      ].join('\n')
    )
    const first = await importJson(dbFile, file)
    await expect(runCli('--db', dbFile, 'import', file)).rejects.toThrow(
      new RegExp(
        `^Nothing imported: "trip": it was already imported on \\d{4}-\\d\\d-\\d\\d as "trip" \\(${first.sessions[0]!.id}\\)\\. Use --again to import it anyway\\.$`
      )
    )
    const again = await importJson(dbFile, file, '--again')
    expect(again.sessions).toHaveLength(1)
    const app = openApp(dbFile)
    expect(app.services.sessions.list()).toHaveLength(2)
    for (const s of [first, again]) expect(checkChatIntegrity(app.database.db, s.sessions[0]!.id)).toEqual([])
    // A deleted chat is forgotten: importing it later is not a duplicate.
    app.services.sessions.remove(first.sessions[0]!.id)
    app.services.sessions.remove(again.sessions[0]!.id)
    await app.close()
    expect((await importJson(dbFile, file)).sessions).toHaveLength(1)
  })

  it('makes an imported system message the chat system prompt', async () => {
    const { dbFile, write } = files()
    const file = write('pirate.json', [
      { role: 'system', content: 'Answer like a pirate.' },
      { role: 'user', content: 'Where is the treasure?' },
      { role: 'assistant', content: 'Arr, under the palm tree.' }
    ])
    const out = await importJson(dbFile, file)
    expect(out.sessions[0]).toMatchObject({ messages: 2, systemPrompt: true })
    const app = openApp(dbFile)
    const id = out.sessions[0]!.id
    expect(app.services.sessions.get(id).systemPrompt).toBe('Answer like a pirate.')
    expect(app.services.chat.messages(id).map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(app.services.next.meter(id).breakdown.system).toBeGreaterThan(0)
    expect(checkChatIntegrity(app.database.db, id)).toEqual([])
    await app.close()
  })

  it('imports the latest branch of a ChatGPT conversation that names no current node', async () => {
    const { dbFile, write } = files()
    const node = (parent: string | null, role: string, text: string, time: number) => ({
      parent,
      message: { author: { role }, content: { content_type: 'text', parts: [text] }, create_time: time }
    })
    const file = write('conversations.json', [
      {
        title: 'Edited question',
        mapping: {
          root: { parent: null, message: null },
          q1: node('root', 'user', 'First wording of the question', 100),
          a1: node('q1', 'assistant', 'Answer to the first wording', 101),
          q2: node('root', 'user', 'Second wording of the question', 200),
          a2: node('q2', 'assistant', 'Answer to the second wording', 201)
        }
      },
      { title: 'Nothing here', mapping: { root: { parent: null, message: null } } }
    ])
    const out = await importJson(dbFile, file)
    expect(out.sessions).toMatchObject([{ title: 'Edited question', messages: 2 }])
    expect(out.skipped).toEqual([{ title: 'Nothing here', reason: 'every message in it is empty or hidden' }])
    const app = openApp(dbFile)
    expect(app.services.chat.messages(out.sessions[0]!.id).map((m) => (m.parts[0] as { text: string }).text)).toEqual([
      'Second wording of the question',
      'Answer to the second wording'
    ])
    expect(checkChatIntegrity(app.database.db, out.sessions[0]!.id)).toEqual([])
    await app.close()
  })
  describe('a ChatGPT export, read a conversation at a time', () => {
    const conversation = (title: string, text: string) => ({
      title,
      mapping: {
        root: { parent: null, message: null },
        q: { parent: 'root', message: { author: { role: 'user' }, content: { content_type: 'text', parts: [text] } } }
      },
      current_node: 'q'
    })

    it('refuses a file cut off in the middle with the reason, having written nothing', async () => {
      const { dbFile, write } = files()
      const whole = JSON.stringify([conversation('First', 'hello'), conversation('Second', 'there')])
      const file = write('conversations.json', whole.slice(0, whole.length - 20))
      await expect(runCli('--db', dbFile, 'import', file)).rejects.toThrow(/The file is not valid JSON/)
      const app = openApp(dbFile)
      expect(app.services.sessions.list()).toEqual([])
      await app.close()
    })

    it('refuses a too long message in a later conversation before writing the earlier ones', async () => {
      const { dbFile, write } = files()
      const file = write('conversations.json', [
        conversation('First', 'hello'),
        conversation('Second', 'x'.repeat(MAX_MESSAGE_CHARS + 1))
      ])
      await expect(runCli('--db', dbFile, 'import', file)).rejects.toThrow(
        'Chat 2 ("Second"), message 1: Message is too long (1,000,000 characters at most). Nothing was imported.'
      )
      const app = openApp(dbFile)
      expect(app.services.sessions.list()).toEqual([])
      await app.close()
    })
  })
})
