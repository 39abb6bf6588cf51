import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../shared/domain/snapshot'
import type { App } from '../app'
import { checkChatIntegrity } from '../db/repositories/chat-integrity'
import { importDistillChat } from '../services/imports/import-distill-chat'
import { manualClock, useTempDir } from '../../../test/support/temp-dir'
import { useOpenApps } from '../../../test/support/test-apps'

const say = (text: string) => [{ type: 'text' as const, text }]

/**
 * A chat with two summaries, the second cascaded from the first and restoring it on Undo (a focus
 * keeps the offline summarizer from choosing another base), then the second edited by the user: a
 * third that restores the second and keeps its base.
 */
async function chatWithCascade(app: App): Promise<string> {
  const { sessions, chat, compression } = app.services
  const session = sessions.create('Cascade')
  const turn = async (i: number) => {
    await chat.append(session.id, { role: 'user', parts: say(`Question ${i}: where does service ${i} log?`) })
    await chat.append(session.id, { role: 'assistant', parts: say(`Service ${i} logs to /var/log/s${i}.log.`) })
  }
  for (let i = 1; i <= 3; i++) await turn(i)
  await compression.run(session.id, { summarizer: 'extractive' })
  for (let i = 4; i <= 6; i++) await turn(i)
  await compression.run(session.id, { summarizer: 'extractive', focus: 'log paths' })
  await compression.editSummary(session.id, 'Services 1 to 6 log to /var/log/sN.log.')
  await chat.append(session.id, { role: 'user', parts: say('And service 7?') })
  return session.id
}

/** Each snapshot's id, status and links, oldest first: what must not change in the source chat. */
const snapshotState = (app: App, sessionId: string) =>
  app.services.compression
    .snapshots(sessionId)
    .map((s) => [s.id, s.kind, s.status, JSON.stringify(s.content)])
    .sort()

const activeSummaries = (app: App, sessionId: string) =>
  app.services.compression.snapshots(sessionId).filter((s) => s.kind === 'summary' && s.status === 'active')

const integrity = (app: App, sessionId: string) => checkChatIntegrity(app.database.db, sessionId)

describe('importing a Distill export', () => {
  const tempDir = useTempDir()
  const apps = useOpenApps()
  const open = (dbFile: string) => apps.open({ dbFile, clock: manualClock() })

  async function importText(app: App, text: string, again = false) {
    const imported = await importDistillChat(app.services, Buffer.from(text), { source: 'chat.distill.json', again })
    // Every import leaves a chat that holds together.
    expect(integrity(app, imported.id)).toEqual([])
    return imported.id
  }

  it('points every link of the copy at its own rows; Undo in a copy leaves the source alone', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const source = await chatWithCascade(app)
    const [first, second, edited] = [...app.services.compression.snapshots(source)]
      .filter((s) => s.kind === 'summary')
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    // The case that broke: the active summary restores an earlier one and is cascaded from another.
    expect(second!.content).toMatchObject({ restoresSnapshotId: first!.id, baseSnapshotId: first!.id })
    expect(edited!.status).toBe('active')
    expect(edited!.content).toMatchObject({ restoresSnapshotId: second!.id, baseSnapshotId: first!.id })
    expect(integrity(app, source)).toEqual([])
    const before = snapshotState(app, source)

    const text = app.services.sessions.export(source, 'json').text
    const copies = [await importText(app, text), await importText(app, text, true)]
    for (const copy of copies) {
      const own = new Set(app.services.compression.snapshots(copy).map((s) => s.id))
      const messages = new Set(app.services.chat.messages(copy).map((m) => m.id))
      for (const s of app.services.compression.snapshots(copy)) {
        for (const link of [s.content.restoresSnapshotId, s.content.baseSnapshotId, s.content.previousSnapshotId])
          if (link) expect(own).toContain(link)
        expect(messages).toContain(s.messageCutoffId)
        expect(messages).toContain(s.content.messageRange.firstMessageId)
        expect(messages).toContain(s.content.messageRange.lastMessageId)
      }
    }

    // Undo in the first copy re-activates the copy's own earlier summaries, and nothing of the source.
    for (const earlier of [second!, first!]) {
      const { active } = await app.services.compression.undo(copies[0]!)
      expect(active?.sessionId).toBe(copies[0])
      expect(active?.content.summaryText).toBe(earlier.content.summaryText)
      expect(snapshotState(app, source)).toEqual(before)
      expect(activeSummaries(app, source).map((s) => s.id)).toEqual([edited!.id])
    }
    // Undo again: the copy has no summary left; the source and the other copy are unchanged.
    expect((await app.services.compression.undo(copies[0]!)).active).toBeNull()
    expect(activeSummaries(app, copies[0]!)).toEqual([])
    expect(snapshotState(app, source)).toEqual(before)
    expect(activeSummaries(app, copies[1]!)).toHaveLength(1)
    for (const chat of [source, ...copies]) expect(integrity(app, chat)).toEqual([])
  })

  it('keeps the links into another database, Undo there going back through the copy’s own summaries', async () => {
    const dir = tempDir()
    const sourceApp = open(join(dir, 'source.db'))
    const source = await chatWithCascade(sourceApp)
    const text = sourceApp.services.sessions.export(source, 'json').text
    const target = open(join(dir, 'target.db'))
    const copy = await importText(target, text)
    const [first, second, edited] = target.services.compression
      .snapshots(copy)
      .filter((s) => s.kind === 'summary')
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    expect(edited!.status).toBe('active')
    expect(edited!.content).toMatchObject({ restoresSnapshotId: second!.id, baseSnapshotId: first!.id })
    expect(second!.content).toMatchObject({ restoresSnapshotId: first!.id, baseSnapshotId: first!.id })
    await target.services.compression.undo(copy)
    expect(target.services.compression.active(copy).summary?.id).toBe(second!.id)
    expect(integrity(target, copy)).toEqual([])
  })

  it('turns a link to a summary the export does not hold into null, never into another chat’s row', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const source = await chatWithCascade(app)
    const data = JSON.parse(app.services.sessions.export(source, 'json').text) as {
      snapshots: Array<Pick<Snapshot, 'id' | 'status' | 'content'>>
    }
    // As a chat imported by an older Distill exports: its summaries name the chat it came from.
    const [first, second, edited] = data.snapshots
    data.snapshots = [edited!]
    expect(edited!.content).toMatchObject({ restoresSnapshotId: second!.id, baseSnapshotId: first!.id })
    edited!.content.previousSnapshotId = first!.id
    // Tier ids made from a message id follow the message to the copy.
    const topic = `topic-${edited!.content.messageRange.firstMessageId}`
    edited!.content.tiered = {
      topics: [{ id: topic, firstSeq: 1, lastSeq: 2, messages: 2 }],
      bulks: [],
      role: 'history',
      summarySnapshotId: second!.id
    }
    const copy = await importText(app, JSON.stringify(data))
    const [summary] = app.services.compression.snapshots(copy)
    expect(summary!.content).toMatchObject({ restoresSnapshotId: null, baseSnapshotId: null, previousSnapshotId: null })
    expect(summary!.content.tiered).toEqual({
      topics: [{ id: `topic-${summary!.content.messageRange.firstMessageId}`, firstSeq: 1, lastSeq: 2, messages: 2 }],
      bulks: [],
      role: 'history'
    })
    const before = snapshotState(app, source)
    expect((await app.services.compression.undo(copy)).active).toBeNull()
    expect(snapshotState(app, source)).toEqual(before)
    expect(activeSummaries(app, source)).toHaveLength(1)
  })

  it('refuses an export whose summaries would not hold together, writing nothing', async () => {
    const app = open(join(tempDir(), 'distill.db'))
    const source = await chatWithCascade(app)
    const data = JSON.parse(app.services.sessions.export(source, 'json').text) as {
      snapshots: Array<Pick<Snapshot, 'id' | 'status'>>
    }
    // Two active summaries: Undo and the context could not tell which one is in use.
    for (const s of data.snapshots) s.status = 'active'
    await expect(
      importDistillChat(app.services, Buffer.from(JSON.stringify(data)), { source: 'chat.distill.json' })
    ).rejects.toThrow(
      /^The chat in “chat\.distill\.json” does not hold together: The chat has 3 active summaries; at most one may be active\. Nothing was imported\.$/
    )
    expect(app.services.sessions.list().map((s) => s.id)).toEqual([source])
    // A summary listed twice is refused when the file is read.
    const twice = JSON.parse(app.services.sessions.export(source, 'json').text) as { snapshots: unknown[] }
    twice.snapshots.push(twice.snapshots[0])
    await expect(
      importDistillChat(app.services, Buffer.from(JSON.stringify(twice)), { source: 'chat.distill.json' })
    ).rejects.toThrow('The Distill export lists a summary id twice.')
  })

  it('refuses a message longer than a send may be, as the send does, and writes nothing', async () => {
    const app = open(join(tempDir(), 'long.db'))
    const source = await chatWithCascade(app)
    const data = JSON.parse(app.services.sessions.export(source, 'json').text) as {
      messages: Array<{ parts: Array<{ type: string; text?: string }> }>
    }
    data.messages.at(-1)!.parts = [{ type: 'text', text: 'x'.repeat(1_000_001) }]
    await expect(
      importDistillChat(app.services, Buffer.from(JSON.stringify(data)), { source: 'chat.distill.json' })
    ).rejects.toThrow(
      /^Message \d+ of the export has 1,000,001 characters; message is too long .* Nothing was imported\.$/
    )
    expect(app.services.sessions.list().map((s) => s.id)).toEqual([source])
  })

  it('refuses pins past the share of the budget they may take, as pinning does', async () => {
    const app = open(join(tempDir(), 'pins.db'))
    const source = await chatWithCascade(app)
    const data = JSON.parse(app.services.sessions.export(source, 'json').text) as {
      messages: Array<{ parts: Array<{ type: string; text?: string }>; pinnedAt?: number }>
    }
    const last = data.messages.at(-1)!
    last.parts = [{ type: 'text', text: 'harbor lantern copper meadow '.repeat(12_000) }]
    last.pinnedAt = 1
    await expect(
      importDistillChat(app.services, Buffer.from(JSON.stringify(data)), { source: 'chat.distill.json' })
    ).rejects.toThrow(
      /^The chat in “chat\.distill\.json” pins messages that would take \d+% .* at most 25% .*Nothing was imported\.$/
    )
    expect(app.services.sessions.list().map((s) => s.id)).toEqual([source])
  })
})
