import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { spawnTs } from '../../../test/support/child-process'
import { useTempDir } from '../../../test/support/temp-dir'
import { DatabaseOpenError, DISTILL_APPLICATION_ID, findMigrationsFolder, openDatabase } from './client'

describe('openDatabase', () => {
  const tempDir = useTempDir()

  it('applies every migration to an empty file, with WAL and foreign keys on', () => {
    const file = join(tempDir(), 'distill.db')
    const { sqlite, close } = openDatabase(file)
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name)
    expect(tables).toEqual(
      expect.arrayContaining(['sessions', 'chat_messages', 'session_snapshots', 'settings', 'messages_fts'])
    )
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000)
    close()
  })

  it('is idempotent: opening twice applies nothing new', () => {
    const file = join(tempDir(), 'distill.db')
    openDatabase(file).close()
    const second = openDatabase(file)
    const count = second.sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }
    const journal = JSON.parse(readFileSync(join(findMigrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[]
    }
    expect(count.n).toBe(journal.entries.length)
    second.close()
  })

  it('reports a file that is not a database and leaves it untouched', () => {
    const file = join(tempDir(), 'distill.db')
    const garbage = 'this is not a database '.repeat(500)
    writeFileSync(file, garbage)
    expect(() => openDatabase(file)).toThrow(DatabaseOpenError)
    expect(() => openDatabase(file)).toThrow(/not a Distill database or is damaged/)
    expect(readFileSync(file, 'utf8')).toBe(garbage)
  })

  it('refuses a database written by a newer version and does not change it', () => {
    const dir = tempDir()
    const file = join(dir, 'distill.db')
    const handle = openDatabase(file)
    handle.sqlite
      .prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
      .run('from-the-future', Date.UTC(2099, 0, 1))
    handle.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    handle.close()
    copyFileSync(file, join(dir, 'before.db'))
    const error = (() => {
      try {
        openDatabase(file)
      } catch (err) {
        return err as DatabaseOpenError
      }
      throw new Error('expected a refusal')
    })()
    expect(error.reason).toBe('too_new')
    expect(error.message).toMatch(/newer version of Distill/)
    expect(readFileSync(file).equals(readFileSync(join(dir, 'before.db')))).toBe(true)
  })
})

describe('opening files Distill did not make, or cannot write', () => {
  const tempDir = useTempDir()

  it('reports a file it cannot write as read-only, and leaves it as it was', async () => {
    const dir = tempDir()
    const file = join(dir, 'distill.db')
    openDatabase(file).close()
    const before = readFileSync(file)
    chmodSync(file, 0o444)
    // root writes through any mode: the check then runs as an ordinary user.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
    if (asUser.uid !== undefined) chmodSync(dir, 0o755)
    const child = spawnTs('test/support/open-child.ts', [file], asUser)
    const [verdict, ...words] = await child.line('')
    expect(verdict).toBe('refused')
    expect(words.join(' ')).toBe(
      `${file} is read-only: Distill needs to write to it. Check its permissions, or use --db to choose another file.`
    )
    expect(readFileSync(file).equals(before)).toBe(true)
  }, 30_000)

  it('refuses a SQLite file another program made and leaves it byte for byte', () => {
    const dir = tempDir()
    const file = join(dir, 'notes.db')
    const other = new Database(file)
    other.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')")
    other.close()
    const before = readFileSync(file)
    const error = (() => {
      try {
        openDatabase(file)
      } catch (err) {
        return err as DatabaseOpenError
      }
      throw new Error('expected a refusal')
    })()
    expect(error.reason).toBe('foreign')
    expect(error.message).toBe(
      `The file ${file} is a SQLite database that Distill did not create (it holds 1 other table). It was left untouched; use --db to choose another file.`
    )
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(existsSync(`${file}-wal`)).toBe(false)
  })

  /** Opens `file` expecting a refusal, and checks nothing in it changed. */
  function expectForeign(file: string): DatabaseOpenError {
    const before = readFileSync(file)
    let error: unknown
    try {
      openDatabase(file).close()
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(DatabaseOpenError)
    expect((error as DatabaseOpenError).reason).toBe('foreign')
    expect(readFileSync(file).equals(before)).toBe(true)
    expect(existsSync(`${file}-wal`)).toBe(false)
    return error as DatabaseOpenError
  }

  it('refuses another drizzle app’s file, though it has __drizzle_migrations, and leaves it byte for byte', () => {
    const file = join(tempDir(), 'other-app.db')
    const other = new Database(file)
    other.exec(`CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric);
      INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('abc', 1700000000000);
      CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')`)
    other.close()
    expect(expectForeign(file).message).toMatch(/did not create \(it holds 2 other tables\)/)
  })

  it('refuses a file holding only a view, and one marked by another application', () => {
    const viewFile = join(tempDir(), 'view.db')
    const view = new Database(viewFile)
    view.exec('CREATE VIEW answer AS SELECT 42 AS value')
    view.close()
    expect(expectForeign(viewFile).message).toMatch(/1 other schema object/)

    const markedFile = join(tempDir(), 'marked.db')
    const marked = new Database(markedFile)
    marked.pragma('application_id = 1234')
    marked.close()
    expect(expectForeign(markedFile).message).toMatch(/application id 1234/)
  })

  it('marks its databases as its own, and marks one an earlier version made without the mark', () => {
    const file = join(tempDir(), 'distill.db')
    openDatabase(file).close()
    const read = () => {
      const raw = new Database(file, { readonly: true })
      const id = raw.pragma('application_id', { simple: true })
      raw.close()
      return id
    }
    expect(read()).toBe(DISTILL_APPLICATION_ID)
    const raw = new Database(file)
    raw.pragma('application_id = 0') // as an earlier Distill left it
    raw.close()
    const reopened = openDatabase(file)
    expect(reopened.sqlite.prepare('SELECT count(*) AS n FROM sessions').get()).toEqual({ n: 0 })
    reopened.close()
    expect(read()).toBe(DISTILL_APPLICATION_ID)
  })

  it('sets up an empty file and a missing one alike', () => {
    const dir = tempDir()
    const empty = join(dir, 'empty.db')
    writeFileSync(empty, '')
    for (const file of [empty, join(dir, 'new', '..', 'missing.db')]) {
      const { sqlite, close } = openDatabase(file)
      expect(sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sessions'").get()).toEqual({ n: 1 })
      close()
    }
  })

  it('reads without writing: a missing file stays missing, and no migration runs', () => {
    const dir = tempDir()
    const missing = join(dir, 'missing.db')
    openDatabase(missing, { readonly: true }).close()
    expect(existsSync(missing)).toBe(false)

    const file = join(dir, 'distill.db')
    openDatabase(file).close()
    const handle = openDatabase(file, { readonly: true })
    expect(() => handle.sqlite.exec("INSERT INTO settings (key, value_json, updated_at) VALUES ('x', '1', 0)")).toThrow(
      /readonly/
    )
    handle.close()
  })
})

describe('migrations on a database with data', () => {
  const tempDir = useTempDir()

  it('backfills the context columns of messages written before them', () => {
    const file = join(tempDir(), 'old.db')
    const { sqlite, close } = openDatabase(file)
    sqlite.exec("INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s', 't', 0, 0)")
    sqlite.exec(`INSERT INTO chat_messages (id, session_id, seq, role, parts, status, created_at) VALUES
      ('a', 's', 1, 'user', '[{"type":"text","text":"hi"}]', 'complete', 0),
      ('b', 's', 2, 'assistant', '[{"type":"tool-call","toolCallId":"c","toolName":"x","input":{}}]', 'complete', 0)`)
    // Simulate rows from before 0003 ran, then run it again.
    sqlite.exec('UPDATE chat_messages SET part_count = 0, has_tool_parts = 0')
    sqlite.exec(readFileSync(join(findMigrationsFolder(), '0003_backfill_context_heads.sql'), 'utf8'))
    expect(sqlite.prepare('SELECT id, part_count, has_tool_parts FROM chat_messages ORDER BY seq').all()).toEqual([
      { id: 'a', part_count: 1, has_tool_parts: 0 },
      { id: 'b', part_count: 1, has_tool_parts: 1 }
    ])
    close()
  })
})
