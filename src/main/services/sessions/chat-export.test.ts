import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { buildProgram } from '../../cli'
import type { App } from '../../app'
import { spawnTs } from '../../../../test/support/child-process'
import { manualClock, useTempDir } from '../../../../test/support/temp-dir'
import { useOpenApps } from '../../../../test/support/test-apps'
import { exportFileName } from './chat-export'

async function cli(dbFile: string, ...args: string[]): Promise<string> {
  const out: string[] = []
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    return true
  })
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  try {
    await buildProgram()
      .exitOverride()
      .parseAsync(['node', 'distill', '--db', dbFile, ...args])
  } finally {
    write.mockRestore()
    err.mockRestore()
  }
  return out.join('')
}

/** A chat with a system prompt, a tool exchange, a failed reply and a summary over its start. */
async function seedChat(app: App): Promise<string> {
  const { sessions, chat, compression } = app.services
  const session = sessions.create('Staging database notes')
  sessions.update(session.id, { systemPrompt: 'Answer in one short paragraph.', modelId: 'gpt-4o' })
  await chat.append(session.id, {
    role: 'user',
    parts: [{ type: 'text', text: 'The staging database listens on port 5433.' }]
  })
  await chat.append(session.id, {
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Let me check the `pg_hba.conf`:' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: '/etc/pg_hba.conf' } }
    ]
  })
  await chat.append(session.id, {
    role: 'tool',
    parts: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output: 'host all all 10.0.0.0/8 md5' }]
  })
  await chat.append(session.id, {
    role: 'assistant',
    parts: [{ type: 'text', text: '## Findings\n\nOnly ```10.0.0.0/8``` may connect.' }]
  })
  await compression.run(session.id, { summarizer: 'extractive' })
  await chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'And production?' }] })
  return session.id
}

describe('chat export and import', () => {
  const tempDir = useTempDir()
  const apps = useOpenApps()
  const open = (dbFile: string) => apps.open({ dbFile, clock: manualClock() })

  it('round-trips through JSON into an equal chat, message by message, summaries included', async () => {
    const dir = tempDir()
    const source = join(dir, 'source.db')
    const app = open(source)
    const id = await seedChat(app)
    const original = app.services.chat.messages(id)
    const originalSummary = app.services.compression
      .snapshots(id)
      .find((s) => s.kind === 'summary' && s.status === 'active')!
    expect(originalSummary).toBeDefined()
    await apps.close(app)

    const file = join(dir, 'chat.json')
    await cli(source, 'export', '--session', id, '--format', 'json', '--out', file)
    const exported = JSON.parse(readFileSync(file, 'utf8'))
    expect(exported).toMatchObject({ format: 'distill-chat', version: 1, session: { title: 'Staging database notes' } })
    // Readable as OpenAI chat messages by other tools.
    expect(exported.messages[1]).toMatchObject({
      role: 'assistant',
      content: 'Let me check the `pg_hba.conf`:',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"/etc/pg_hba.conf"}' } }
      ]
    })
    expect(exported.messages[2]).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'host all all 10.0.0.0/8 md5'
    })

    const target = join(dir, 'target.db')
    const printed = JSON.parse(await cli(target, 'import', file, '--json'))
    expect(printed.sessions).toHaveLength(1)
    const copy = open(target)
    const newId = printed.sessions[0].id as string
    const session = copy.services.sessions.get(newId)
    expect(session).toMatchObject({
      title: 'Staging database notes',
      systemPrompt: 'Answer in one short paragraph.',
      modelId: 'gpt-4o'
    })
    const restored = copy.services.chat.messages(newId)
    expect(restored).toHaveLength(original.length)
    restored.forEach((m, i) => {
      const o = original[i]!
      expect([m.seq, m.role, m.status, m.createdAt, m.parts]).toEqual([o.seq, o.role, o.status, o.createdAt, o.parts])
    })
    // The summary is back, active, and covers the same messages of the new chat.
    const summary = copy.services.compression.active(newId).summary
    expect(summary?.content.summaryText).toBe(originalSummary.content.summaryText)
    expect(summary?.cutoffSeq).toBe(originalSummary.cutoffSeq)
    expect(restored.map((m) => m.id)).toContain(summary?.messageCutoffId)
  })

  it('exports from a database it cannot write, since it only reads', async () => {
    const dir = tempDir()
    const dbFile = join(dir, 'distill.db')
    const app = open(dbFile)
    const id = await seedChat(app)
    await apps.close(app)
    chmodSync(dbFile, 0o444)
    // root writes through any mode: the export then runs as an ordinary user, who cannot write the folder either.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
    chmodSync(dir, 0o555)
    const child = spawnTs(
      'src/main/cli/index.ts',
      ['--db', dbFile, 'export', '--session', id, '--format', 'json'],
      asUser
    )
    const [first] = await child.line('{')
    expect(first).toBeUndefined()
    expect(await child.exited).toEqual({ code: 0, signal: null })
    expect(child.stderr()).toBe('')
    chmodSync(dir, 0o700)
  }, 30_000)

  it('exports a readable Markdown transcript with the summary and every message', async () => {
    const dbFile = join(tempDir(), 'md.db')
    const app = open(dbFile)
    const id = await seedChat(app)
    const { filename, text } = app.services.sessions.export(id, 'md')
    expect(filename).toBe('staging-database-notes.md')
    expect(text).toMatch(/^# Staging database notes\n/)
    expect(text).toContain('## System prompt\n\nAnswer in one short paragraph.')
    expect(text).toMatch(/## Summary of the first 4 messages\n\n> /)
    expect(text).toContain('The staging database listens on port 5433.')
    expect(text).toContain('**Tool call** `read_file`')
    // A fence longer than the triple backticks inside the message text.
    expect(text).toContain('host all all 10.0.0.0/8 md5')
    expect(text.match(/^### (You|Assistant|Tool) ·/gm)).toHaveLength(5)
    // The summary's lines say which message they came from, by the number each message's heading shows.
    expect(text).toMatch(/^> - User: The staging database listens on port 5433\. \(from message #1\)$/m)
    expect(text).toContain('### You · #1 · ')
  })

  it('lists the sources of each line of the active summary in the JSON export', async () => {
    const app = open(join(tempDir(), 'sources.db'))
    const id = await seedChat(app)
    const exported = JSON.parse(app.services.sessions.export(id, 'json').text)
    const summary = exported.snapshots.find((s: { status: string }) => s.status === 'active')
    const ids = new Map(exported.messages.map((m: { id: string; seq: number }) => [m.id, m.seq]))
    expect(summary.lines.length).toBeGreaterThan(0)
    for (const line of summary.lines as Array<{
      line: number
      text: string
      sources: Array<{ messageId: string; seq: number }>
    }>) {
      expect(summary.content.summaryText.split('\n')[line.line]).toBe(line.text)
      expect(line.sources.length).toBeGreaterThan(0)
      for (const source of line.sources) expect(ids.get(source.messageId)).toBe(source.seq)
    }
    expect(summary.lines[0]).toMatchObject({ text: expect.stringContaining('port 5433'), sources: [{ seq: 1 }] })
  })

  it('refuses a newer version and a broken file with a sentence, creating nothing', async () => {
    const dir = tempDir()
    const dbFile = join(dir, 'x.db')
    const app = open(dbFile)
    const id = await seedChat(app)
    const json = app.services.sessions.export(id, 'json').text
    await apps.close(app)

    const newer = join(dir, 'newer.json')
    writeFileSync(newer, json.replace('"version": 1', '"version": 3'))
    await expect(cli(dbFile, 'import', newer)).rejects.toThrow(
      'This export is version 3; this Distill reads version 2. Update Distill to import it.'
    )
    const broken = join(dir, 'broken.json')
    const data = JSON.parse(json)
    data.messages[1].role = 'robot'
    writeFileSync(broken, JSON.stringify(data))
    await expect(cli(dbFile, 'import', broken)).rejects.toThrow(/The Distill export is malformed at messages\.1\.role/)
    expect(open(dbFile).services.sessions.list()).toHaveLength(1)
  })

  it('names files after the title, never empty', () => {
    expect(exportFileName('Café: plans / 2026?', 'json')).toBe('cafe-plans-2026.distill.json')
    expect(exportFileName('???', 'md')).toBe('chat.md')
  })
})
