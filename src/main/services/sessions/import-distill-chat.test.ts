import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { AttachmentPart } from '../../../shared/domain/chat-message'
import type { App } from '../../app'
import { buildProgram } from '../../cli'
import { samplePng } from '../../../../test/support/sample-files'
import { runCli } from '../../../../test/support/run-cli'
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
    const files = [
      await upload(app, 'chart.png', 'image/png', png),
      await upload(app, 'checklist.md', 'text/markdown', notes)
    ]
    await app.services.chat.append(session.id, {
      role: 'user',
      parts: [{ type: 'text', text: 'Here are the files' }, ...files]
    })
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
    const parts = target.services.chat
      .messages(id)[0]!
      .parts.filter((p): p is AttachmentPart => p.type === 'attachment')
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
    tampered.attachments[1]!.data = Buffer.from('# Release checklist\n\nThe rollback password is changed.\n').toString(
      'base64'
    )
    expect(await app.router.call('sessions.import', { text: JSON.stringify(tampered) })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message:
          'The file “checklist.md” in the export does not match its checksum: it was damaged or changed. Nothing was imported.'
      }
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
      await buildProgram()
        .exitOverride()
        .parseAsync(['node', 'distill', '--db', join(dir, 'target.db'), 'import', file])
    } finally {
      write.mockRestore()
      err.mockRestore()
    }
    expect(out.join('')).toMatch(/^Imported "Release files" \(2 messages, 2 files\) as /)
    expect(readFileSync(join(dir, 'attachments', sha(png).slice(0, 2), sha(png).slice(2))).equals(png)).toBe(true)
  })
  it('removes the files it stored when a later file is refused: nothing of the import is left', async () => {
    const dir = tempDir()
    const app = open(join(dir, 'distill.db'))
    const { id, text } = await chatWithFiles(app)
    app.services.sessions.remove(id)
    expect(app.services.attachments.describe(sha(png))).toBeUndefined()
    // A third file whose checksum is right but whose bytes are not the text its type says.
    const binary = Buffer.from([0, 159, 146, 150, 0, 1])
    const data = JSON.parse(text)
    data.messages[0].parts.push({
      type: 'attachment',
      filename: 'notes.txt',
      mediaType: 'text/plain',
      size: binary.length,
      hash: sha(binary)
    })
    data.attachments.push({
      hash: sha(binary),
      mediaType: 'text/plain',
      size: binary.length,
      data: binary.toString('base64')
    })
    const res = await app.router.call('sessions.import', { text: JSON.stringify(data) })
    expect(res).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(
          /^The file “notes\.txt” in the export could not be stored: .* Nothing was imported\.$/
        )
      }
    })
    expect(app.services.sessions.list()).toEqual([])
    for (const hash of [sha(png), sha(notes)]) {
      expect(app.services.attachments.describe(hash)).toBeUndefined()
      expect(existsSync(app.services.attachments.pathOf(hash))).toBe(false)
    }
  })

  it('imports into an in-memory database too (written inline on the app’s own connection)', async () => {
    const source = open(join(tempDir(), 'source.db'))
    const { text } = await chatWithFiles(source)
    const memory = open(':memory:')
    expect(await memory.router.call('sessions.import', { text })).toMatchObject({
      ok: true,
      data: { title: 'Release files', messages: 2, attachments: 2 }
    })
    const [chat] = memory.services.sessions.list()
    expect(memory.services.chat.messages(chat!.id).map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('refuses an export whose file list lacks files its messages attach', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const { id, text } = await chatWithFiles(app)
    app.services.sessions.remove(id)
    const data = JSON.parse(text)
    data.attachments = []
    expect(await app.router.call('sessions.import', { text: JSON.stringify(data) })).toMatchObject({
      ok: false,
      error: {
        message:
          'The messages attach 2 files (“chart.png”, “checklist.md”), which the export does not carry. Nothing was imported.'
      }
    })
    expect(app.services.sessions.list()).toEqual([])
  })

  it('still imports an export an older Distill wrote (version 1, no seqs, no files), keeping the names of its files', async () => {
    const dir = tempDir()
    const file = join(dir, 'old.distill.json')
    writeFileSync(file, OLD_EXPORT)
    const out = await runCli('--db', join(dir, 'distill.db'), 'import', file)
    expect(out).toMatch(
      /^Imported "Quarterly numbers" \(3 messages, 1 summaries\) as .*\n1 file was not in the export \(it predates exported files\): only its name is kept\.\n$/
    )
    const app = open(join(dir, 'distill.db'))
    const [chat] = app.services.sessions.list()
    const messages = app.services.chat.messages(chat!.id)
    expect(messages.map((m) => [m.seq, m.role, m.createdAt])).toEqual([
      [1, 'user', 1_767_000_000_000],
      [2, 'assistant', 1_767_000_060_000],
      [3, 'user', 1_767_000_120_000]
    ])
    expect(messages[0]!.parts[1]).toEqual({ type: 'attachment', filename: 'q3.csv', mediaType: 'text/csv', size: 120 })
    expect(app.services.compression.active(chat!.id).summary?.messageCutoffId).toBe(messages[1]!.id)
  })

  it('says the Markdown export is for reading, and the export itself says it keeps only current versions', async () => {
    const app = open(join(tempDir(), 'md.db'))
    const session = app.services.sessions.create()
    await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'Hello there.' }] })
    const res = await app.router.call('sessions.export', { id: session.id, format: 'md' })
    if (!res.ok) throw new Error(res.error.message)
    const markdown = (res.data as { text: string }).text
    expect(markdown).toContain('The current version of each message only: the JSON export keeps every version')
    expect(await app.router.call('sessions.import', { text: markdown })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^This is a Markdown file: only Distill's JSON export/) }
    })
  })
})

/** A chat exported by Distill before versions and files were exported: version 1, parts naming a file it does not carry. */
const OLD_EXPORT = JSON.stringify({
  format: 'distill-chat',
  version: 1,
  exportedAt: '2026-01-01T10:00:00.000Z',
  session: {
    id: 'old-session',
    title: 'Quarterly numbers',
    systemPrompt: null,
    provider: 'openai',
    modelId: 'gpt-4o',
    strategy: null,
    autoCompress: null,
    createdAt: 1_767_000_000_000,
    updatedAt: 1_767_000_120_000
  },
  messages: [
    {
      role: 'user',
      content: 'Here are the Q3 numbers',
      id: 'm1',
      createdAt: 1_767_000_000_000,
      status: 'complete',
      parts: [
        { type: 'text', text: 'Here are the Q3 numbers' },
        { type: 'attachment', filename: 'q3.csv', mediaType: 'text/csv', size: 120, hash: 'a'.repeat(64) }
      ]
    },
    {
      role: 'assistant',
      content: 'Revenue grew 12%.',
      id: 'm2',
      createdAt: 1_767_000_060_000,
      status: 'complete',
      parts: [{ type: 'text', text: 'Revenue grew 12%.' }],
      usage: { inputTokens: 40, outputTokens: 6 }
    },
    {
      role: 'user',
      content: 'And costs?',
      id: 'm3',
      createdAt: 1_767_000_120_000,
      status: 'complete',
      parts: [{ type: 'text', text: 'And costs?' }]
    }
  ],
  snapshots: [
    {
      id: 's1',
      kind: 'summary',
      status: 'active',
      messageCutoffId: 'm2',
      tokenCount: 12,
      createdAt: 1_767_000_100_000,
      content: {
        summaryText: 'The user shared Q3 numbers; revenue grew 12%.',
        messageRange: { firstMessageId: 'm1', lastMessageId: 'm2' },
        compressionTimestamp: '2026-01-01T09:58:20.000Z',
        compressionType: 'manual',
        originalTokenCount: 60,
        summaryTokenCount: 12,
        messagesIncluded: 2,
        strategy: 'rolling',
        summarizer: 'extractive',
        previousSnapshotId: null,
        focus: null,
        retentionTokens: 0,
        contextTokensBefore: 70,
        contextTokensAfter: 30,
        warnings: []
      }
    }
  ]
})
