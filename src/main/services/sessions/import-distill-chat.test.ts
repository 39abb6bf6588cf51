import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { AttachmentPart } from '../../../shared/domain/chat-message'
import type { App } from '../../app'
import { buildProgram } from '../../cli'
import { samplePng } from '../../../../test/support/sample-files'
import { manualClock, useTempDir } from '../../../../test/support/temp-dir'
import { useOpenApps } from '../../../../test/support/test-apps'

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const png = samplePng(32, 24, [200, 40, 40])
const notes = Buffer.from('# Release checklist\n\nThe rollback password is periwinkle-42.\n')

describe('export and import of a chat with its attached files', () => {
  const tempDir = useTempDir()
  const apps = useOpenApps()
  const open = (dbFile: string) => apps.open({ dbFile, clock: manualClock() })
  const close = apps.close

  async function upload(app: App, filename: string, mediaType: string, data: Buffer): Promise<AttachmentPart> {
    const res = await app.router.call('attachments.upload', { filename, mediaType, data: data.toString('base64') })
    if (!res.ok) throw new Error(res.error.message)
    return res.data as AttachmentPart
  }

  /** A chat whose first message attaches an image and a text file; returns its id and the export's text. */
  async function chatWithFiles(app: App): Promise<{ id: string; text: string }> {
    const session = app.services.sessions.create('Release files')
    const files = [await upload(app, 'chart.png', 'image/png', png), await upload(app, 'checklist.md', 'text/markdown', notes)]
    await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'Here are the files' }, ...files] })
    await app.services.chat.append(session.id, { role: 'assistant', parts: [{ type: 'text', text: 'Got them.' }] })
    const res = await app.router.call('sessions.export', { id: session.id, format: 'json' })
    if (!res.ok) throw new Error(res.error.message)
    return { id: session.id, text: (res.data as { text: string }).text }
  }

  it('carries the bytes with their sha-256, and an import into another database stores them again', async () => {
    const source = open(join(tempDir(), 'source.db'))
    const { text } = await chatWithFiles(source)
    const data = JSON.parse(text) as { attachments: { hash: string; mediaType: string; size: number; data: string }[] }
    expect(data.attachments.map((a) => [a.hash, a.mediaType, a.size])).toEqual([
      [sha(png), 'image/png', png.length],
      [sha(notes), 'text/markdown', notes.length]
    ])
    expect(Buffer.from(data.attachments[0]!.data, 'base64').equals(png)).toBe(true)
    await close(source)

    const otherDir = join(tempDir(), 'other')
    mkdirSync(otherDir)
    const target = open(join(otherDir, 'distill.db'))
    const res = await target.router.call('sessions.import', { text })
    expect(res).toMatchObject({ ok: true, data: { title: 'Release files', messages: 2, attachments: 2 } })
    const id = (res as { data: { id: string } }).data.id
    const parts = target.services.chat.messages(id)[0]!.parts.filter((p): p is AttachmentPart => p.type === 'attachment')
    expect(parts.map((p) => [p.filename, p.hash])).toEqual([
      ['chart.png', sha(png)],
      ['checklist.md', sha(notes)]
    ])
    expect(target.services.attachments.read(sha(png)).equals(png)).toBe(true)
    expect(existsSync(join(otherDir, 'attachments', sha(notes).slice(0, 2), sha(notes).slice(2)))).toBe(true)
    // Referenced by the imported message: a sweep keeps them.
    expect(target.services.attachments.sweep()).toEqual([])
    expect(target.services.attachments.describe(sha(notes))?.description).toBe('Release checklist')
  })

  it('brings the files back after the chat was deleted and its files swept', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const { id, text } = await chatWithFiles(app)
    // Deleting the chat sweeps the files nothing else references.
    app.services.sessions.remove(id)
    expect(() => app.services.attachments.read(sha(png))).toThrow(/no longer stored/)
    const res = await app.router.call('sessions.import', { text })
    expect(res.ok).toBe(true)
    expect(app.services.attachments.read(sha(png)).equals(png)).toBe(true)
  })

  it('refuses a file whose bytes do not match its checksum, or are not base64, writing nothing', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const { id, text } = await chatWithFiles(app)
    app.services.sessions.remove(id)
    const data = JSON.parse(text) as { attachments: { data: string }[] }
    const tampered = structuredClone(data)
    tampered.attachments[1]!.data = Buffer.from('# Release checklist\n\nThe rollback password is changed.\n').toString('base64')
    expect(await app.router.call('sessions.import', { text: JSON.stringify(tampered) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'The file “checklist.md” in the export does not match its checksum: it was damaged or changed. Nothing was imported.' }
    })
    const broken = structuredClone(data)
    broken.attachments[0]!.data = '%%%not base64%%%'
    expect(await app.router.call('sessions.import', { text: JSON.stringify(broken) })).toMatchObject({
      ok: false,
      error: { message: 'The file “chart.png” in the export is not valid base64. Nothing was imported.' }
    })
    expect(app.services.sessions.list()).toEqual([])
    expect(app.services.attachments.describe(sha(png))).toBeUndefined()
  })

  it('`distill import` reads the same file and says how many files came back', async () => {
    const dir = tempDir()
    const source = open(join(dir, 'source.db'))
    const { text } = await chatWithFiles(source)
    await close(source)
    const file = join(dir, 'chat.distill.json')
    writeFileSync(file, text)
    const out: string[] = []
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk))
      return true
    })
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      await buildProgram().exitOverride().parseAsync(['node', 'distill', '--db', join(dir, 'target.db'), 'import', file])
    } finally {
      write.mockRestore()
      err.mockRestore()
    }
    expect(out.join('')).toMatch(/^Imported "Release files" \(2 messages, 2 files\) as /)
    expect(readFileSync(join(dir, 'attachments', sha(png).slice(0, 2), sha(png).slice(2))).equals(png)).toBe(true)
  })
})
