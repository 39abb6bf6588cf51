import { createHash } from 'node:crypto'
import { existsSync, readdirSync, statSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client'
import { appendMessage } from '../db/repositories/messages/messages-repo'
import { deleteSession, insertSession } from '../db/repositories/sessions-repo'
import { manualClock, useTempDir } from '../../../test/support/temp-dir'
import { samplePdf, samplePng } from '../../../test/support/sample-files'
import { MAX_ATTACHMENT_BYTES } from '../../shared/domain/attachments'
import { attachmentsDir, createAttachmentStore, UNSENT_GRACE_MS } from './attachment-store'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe('attachment store (real SQLite file, real folder)', () => {
  const tempDir = useTempDir()

  function open() {
    const dir = tempDir()
    const handle = openDatabase(join(dir, 'distill.db'))
    const clock = manualClock()
    const store = createAttachmentStore({ db: handle.db, dir: attachmentsDir(dir), now: clock.now })
    return { db: handle.db, store, clock, dir, close: handle.close }
  }

  function message(
    db: ReturnType<typeof open>['db'],
    sessionId: string,
    parts: Parameters<typeof appendMessage>[1]['parts']
  ) {
    return appendMessage(db, {
      id: `m-${Math.random()}`,
      sessionId,
      role: 'user',
      parts,
      status: 'complete',
      createdAt: 1
    })
  }

  function session(db: ReturnType<typeof open>['db'], id: string) {
    insertSession(db, { id, title: id, createdAt: 1, updatedAt: 1 })
    return id
  }

  it('stores bytes once under their sha-256, private to the user, and says what they are', async () => {
    const { store, dir, close } = open()
    const png = samplePng(40, 30)
    const part = await store.upload({ filename: 'C:\\Users\\me\\shot.png', mediaType: 'image/png', data: png })
    expect(part).toEqual({
      type: 'attachment',
      filename: 'shot.png',
      mediaType: 'image/png',
      size: png.length,
      hash: sha(png),
      width: 40,
      height: 30
    })
    const file = join(dir, 'attachments', part.hash!.slice(0, 2), part.hash!.slice(2))
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'attachments')).mode & 0o777).toBe(0o700)
    expect(store.read(part.hash!).equals(png)).toBe(true)
    const again = await store.upload({ filename: 'copy.png', mediaType: '', data: png })
    expect(again.hash).toBe(part.hash)
    expect(readdirSync(join(dir, 'attachments', part.hash!.slice(0, 2)))).toHaveLength(1)
    const pdf = await store.upload({
      filename: 'report.pdf',
      mediaType: 'application/pdf',
      data: samplePdf(['one', 'two', 'three'])
    })
    expect(pdf).toMatchObject({ mediaType: 'application/pdf', pages: 3 })
    const code = await store.upload({
      filename: 'main.ts',
      mediaType: 'video/mp2t',
      data: Buffer.from('export const x = 1\n')
    })
    expect(code.mediaType).toBe('text/plain')
    close()
  })

  it('refuses what it cannot take, with a sentence, and stores nothing', async () => {
    const { store, dir, close } = open()
    await expect(
      store.upload({ filename: 'song.mp3', mediaType: 'audio/mpeg', data: Buffer.from([1, 2, 3]) })
    ).rejects.toThrow(
      '“song.mp3” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.'
    )
    await expect(
      store.upload({ filename: 'fake.png', mediaType: 'image/png', data: Buffer.from('not an image') })
    ).rejects.toThrow('is not a PNG, JPEG, WebP or GIF image')
    await expect(
      store.upload({ filename: 'notes.txt', mediaType: 'text/plain', data: Buffer.from([0x68, 0, 0xff]) })
    ).rejects.toThrow('holds binary data')
    await expect(
      store.upload({ filename: 'broken.pdf', mediaType: 'application/pdf', data: Buffer.from('%PDF-1.4 nothing') })
    ).rejects.toThrow('could not be read as a PDF')
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61)
    await expect(store.upload({ filename: 'big.txt', mediaType: 'text/plain', data: big })).rejects.toThrow(
      '“big.txt” is 5.0 MB; a file can be up to 5.0 MB.'
    )
    expect(existsSync(join(dir, 'attachments'))).toBe(false)
    close()
  })

  it('deleting a chat frees the files nothing else references; unsent uploads wait out their grace', async () => {
    const { db, store, clock, dir, close } = open()
    const a = await store.upload({ filename: 'a.png', mediaType: 'image/png', data: samplePng(2, 2, [1, 2, 3]) })
    const shared = await store.upload({ filename: 's.txt', mediaType: 'text/plain', data: Buffer.from('shared') })
    const draft = await store.upload({
      filename: 'draft.txt',
      mediaType: 'text/plain',
      data: Buffer.from('not sent yet')
    })
    message(db, session(db, 'one'), [{ type: 'text', text: 'hi' }, a, shared])
    message(db, session(db, 'two'), [shared])
    deleteSession(db, 'one')
    expect(store.sweep()).toEqual([a.hash])
    expect(existsSync(store.pathOf(a.hash!))).toBe(false)
    expect(store.read(shared.hash!).toString()).toBe('shared')
    expect(store.read(draft.hash!).toString()).toBe('not sent yet')
    deleteSession(db, 'two')
    expect(store.sweep()).toEqual([shared.hash])
    clock.advance(UNSENT_GRACE_MS + 1)
    expect(store.sweep()).toEqual([draft.hash])
    expect(readdirSync(join(dir, 'attachments')).flatMap((d) => readdirSync(join(dir, 'attachments', d)))).toEqual([])
    close()
  })

  it('removes files a crash left without a row, once they are old', () => {
    const { store, clock, close } = open()
    const orphan = sha(Buffer.from('orphan'))
    mkdirSync(join(store.dir, orphan.slice(0, 2)), { recursive: true })
    writeFileSync(store.pathOf(orphan), 'orphan')
    expect(store.sweep({ orphanFiles: true })).toEqual([])
    const old = (clock.now() - UNSENT_GRACE_MS * 2) / 1000
    utimesSync(store.pathOf(orphan), old, old)
    expect(store.sweep({ orphanFiles: true })).toEqual([orphan])
    close()
  })

  it('indexes text and PDF files for recall on upload, once, and the index goes with the file', async () => {
    const { db, store, close } = open()
    const notes = Buffer.from('# Ops notes\n\nThe backup bucket is s3://amber-vault.\n')
    await store.upload({ filename: 'ops.md', mediaType: 'text/markdown', data: notes })
    await store.upload({ filename: 'ops.md', mediaType: 'text/markdown', data: notes })
    await store.upload({
      filename: 'report.pdf',
      mediaType: 'application/pdf',
      data: samplePdf(['Quarterly revenue rose', 'Costs fell'])
    })
    const chunks = () =>
      db.all<{ hash: string; text: string }>(sql`SELECT hash, text FROM attachment_chunks ORDER BY text`)
    expect(chunks().map((c) => c.text)).toEqual([
      '# Ops notes\n\nThe backup bucket is s3://amber-vault.',
      expect.stringMatching(/^\[page 1\]\nQuarterly revenue rose/)
    ])
    expect(store.describe(sha(notes))?.description).toBe('Ops notes')
    // Unsent past its grace: swept, and its passages with it.
    store.sweep()
    expect(chunks()).toHaveLength(2)
    db.run(sql`UPDATE attachments SET created_at = 0`)
    store.sweep()
    expect(chunks()).toEqual([])
    close()
  })

  it('indexes at start-up the text files stored before the index existed', async () => {
    const { db, store, close } = open()
    const notes = Buffer.from('Deploy with the blue-green switch on Fridays.\n')
    await store.upload({ filename: 'deploy.txt', mediaType: 'text/plain', data: notes })
    db.run(sql`DELETE FROM attachment_chunks`)
    db.run(sql`UPDATE attachments SET description = NULL`)
    expect(store.indexStored()).toBe(1)
    expect(store.indexStored()).toBe(0)
    expect(store.describe(sha(notes))?.description).toBe('Deploy with the blue-green switch on Fridays.')
    close()
  })
})
