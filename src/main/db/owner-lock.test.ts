import { existsSync, linkSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app'
import { runCli as distill } from '../../../test/support/run-cli'
import { silentLogger } from '../logger'
import { spawnTs, type TsChild } from '../../../test/support/child-process'
import { useTempDir } from '../../../test/support/temp-dir'
import { DatabaseOpenError } from './client'

const open = (dbFile: string, access: 'owner' | 'read-only' = 'owner'): App =>
  createApp({ dbFile, mode: 'browser', access, command: 'distill test', log: silentLogger, env: {} })

describe('one writer per database', () => {
  const tempDir = useTempDir()
  const children: TsChild[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) {
      c.child.kill('SIGKILL')
      await c.exited
    }
  })

  async function ownedByChild(dbFile: string) {
    const owner = spawnTs('test/support/owner-child.ts', [dbFile])
    children.push(owner)
    const [sessionId, replyId] = await owner.line('ready')
    return { owner, sessionId: sessionId!, replyId: replyId! }
  }

  it('refuses a second writer process with a sentence naming the owner, and frees the file when the owner dies', async () => {
    const dbFile = join(tempDir(), 'distill.db')
    const { owner } = await ownedByChild(dbFile)
    let refusal: unknown
    try {
      open(dbFile)
    } catch (err) {
      refusal = err
    }
    expect(refusal).toBeInstanceOf(DatabaseOpenError)
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^This database is open in Distill \\(owner-child, pid ${owner.child.pid}, since \\d\\d:\\d\\d\\)\\. Close it first, or use --db to choose another file\\.$`
      )
    )
    // A crash releases the lock with the process: no stale lock to clean up by hand.
    owner.child.kill('SIGKILL')
    await owner.exited
    const app = open(dbFile)
    expect(app.services.sessions.list()).toHaveLength(1)
    await app.close()
  }, 30_000)

  it('lets read-only commands work while another process writes, without touching its streaming reply', async () => {
    const dbFile = join(tempDir(), 'distill.db')
    const { sessionId, replyId } = await ownedByChild(dbFile)

    const listed = JSON.parse(await distill('--db', dbFile, 'sessions', '--json')) as Array<{
      id: string
      messageCount: number
    }>
    expect(listed).toMatchObject([{ id: sessionId, messageCount: 2 }])
    const context = JSON.parse(await distill('--db', dbFile, 'context', '--session', sessionId, '--json')) as {
      messages: Array<{ content: string }>
    }
    expect(context.messages.map((m) => m.content)).toContain('Tell me a long story')

    const reader = open(dbFile, 'read-only')
    expect(reader.services.chat.message(replyId)).toMatchObject({
      status: 'streaming',
      parts: [{ type: 'text', text: 'Once upon' }]
    })
    // The uncounted message is counted locally, not stored: storing counts is the owner's job.
    expect(reader.services.next.meter(sessionId)).toMatchObject({ recounting: false, messages: 1 })
    await reader.close()
    const raw = new Database(dbFile, { readonly: true })
    expect(raw.prepare('SELECT status, error FROM chat_messages WHERE id = ?').get(replyId)).toEqual({
      status: 'streaming',
      error: null
    })
    raw.close()
  }, 30_000)

  it('meets the same lock through a symbolic link to the file or to its folder', async () => {
    const dir = tempDir()
    const dbFile = join(dir, 'a.db')
    const first = open(dbFile)
    symlinkSync(dbFile, join(dir, 'link.db'))
    symlinkSync(dir, join(dir, 'folder-link'))
    for (const other of [join(dir, 'link.db'), join(dir, 'folder-link', 'a.db')]) {
      expect(() => open(other), other).toThrow(/This database is open in Distill \(distill test, pid/)
    }
    await first.close()
    const second = open(join(dir, 'link.db'))
    await second.close()
  })

  it('meets the same lock through a hard link, another name of the same file', async () => {
    const dir = tempDir()
    const dbFile = join(dir, 'a.db')
    const first = open(dbFile)
    mkdirSync(join(dir, 'elsewhere'))
    const other = join(dir, 'elsewhere', 'same.db')
    linkSync(dbFile, other)
    expect(() => open(other)).toThrow(/This database is open in Distill \(distill test, pid/)
    await first.close()
    const second = open(other)
    expect(() => open(dbFile)).toThrow(/This database is open in Distill/)
    await second.close()
  })

  it('refuses a second owner in the same process until the first closes', async () => {
    const dbFile = join(tempDir(), 'distill.db')
    const first = open(dbFile)
    expect(() => open(dbFile)).toThrow(/This database is open in Distill \(distill test, pid \d+/)
    await first.close()
    const second = open(dbFile)
    await second.close()
  })

  it('keeps the database, its journal files and the lock readable by the user only', async () => {
    const dir = join(tempDir(), 'data')
    const dbFile = join(dir, 'distill.db')
    const app = open(dbFile)
    app.services.providers.update('openai', { apiKey: 'sk-test-1234' })
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8)
    expect(mode(dir)).toBe('700')
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}.lock`, join(dir, 'secrets.json')])
      expect([f, mode(f)]).toEqual([f, '600'])
    await app.close()
  })
})

describe('a damaged lock file', () => {
  const tempDir = useTempDir()

  it('is reported with what to do, and the database is not opened', () => {
    const dbFile = join(tempDir(), 'distill.db')
    writeFileSync(`${dbFile}.lock`, 'not a lock '.repeat(600))
    expect(() => open(dbFile)).toThrow(
      `The lock file ${dbFile}.lock is damaged. If no Distill is running on this database, delete that file and try again.`
    )
    expect(existsSync(dbFile)).toBe(false)
  })
})
