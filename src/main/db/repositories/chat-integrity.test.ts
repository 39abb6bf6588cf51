import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { manualClock } from '../../../../test/support/temp-dir'
import { useTestApps } from '../../../../test/support/test-apps'
import { checkChatIntegrity } from './chat-integrity'

const say = (text: string) => [{ type: 'text' as const, text }]

/** A chat of four messages with one summary over the first two; returns its id. */
async function summarizedChat(app: App, title: string): Promise<string> {
  const { sessions, chat, compression } = app.services
  const session = sessions.create(title)
  for (let i = 1; i <= 2; i++) {
    await chat.append(session.id, { role: 'user', parts: say(`${title}: question ${i} about the deploy`) })
    await chat.append(session.id, { role: 'assistant', parts: say(`${title}: answer ${i}, it runs nightly.`) })
  }
  await compression.run(session.id, { summarizer: 'extractive' })
  return session.id
}

describe('checkChatIntegrity', () => {
  const openApp = useTestApps()
  const open = () => openApp({ clock: manualClock() })

  it('finds nothing wrong with chats the app wrote', async () => {
    const app = open()
    const a = await summarizedChat(app, 'Alpha')
    const b = await summarizedChat(app, 'Beta')
    expect(checkChatIntegrity(app.database.db, a)).toEqual([])
    expect(checkChatIntegrity(app.database.db, b)).toEqual([])
    expect(checkChatIntegrity(app.database.db, 'no-such-chat')).toEqual(['Chat no-such-chat does not exist.'])
  })

  it('names every id that points into another chat or at nothing, and a second active summary', async () => {
    const app = open()
    const a = await summarizedChat(app, 'Alpha')
    const b = await summarizedChat(app, 'Beta')
    const sqlite = app.database.sqlite
    const messagesOf = (id: string) =>
      (
        sqlite.prepare('SELECT id FROM chat_messages WHERE session_id = ? ORDER BY seq').all(id) as { id: string }[]
      ).map((r) => r.id)
    const [summaryA] = app.services.compression.snapshots(a).filter((s) => s.kind === 'summary')
    const [summaryB] = app.services.compression.snapshots(b).filter((s) => s.kind === 'summary')
    const [a1, a2] = messagesOf(a)
    const [b1, b2] = messagesOf(b)

    // A's summary restores and cascades from B's, covers up to B's message and names one of B's.
    const content = {
      ...summaryA!.content,
      restoresSnapshotId: summaryB!.id,
      baseSnapshotId: 'gone',
      previousSnapshotId: summaryA!.id,
      messageRange: { firstMessageId: b1!, lastMessageId: summaryA!.content.messageRange.lastMessageId },
      tiered: {
        topics: [{ id: `topic-${b2}`, firstSeq: 1, lastSeq: 2, messages: 2 }],
        bulks: [],
        role: 'history' as const
      }
    }
    sqlite
      .prepare('UPDATE session_snapshots SET content_json = ?, message_cutoff_id = ? WHERE id = ?')
      .run(JSON.stringify(content), b2, summaryA!.id)
    // A's second message is a version of B's first; a copy of A's summary is active too.
    sqlite.prepare('UPDATE chat_messages SET version_group = ?, hidden_in = ? WHERE id = ?').run(b1, 'nowhere', a2)
    sqlite
      .prepare(
        `INSERT INTO session_snapshots (id, session_id, kind, content_json, message_cutoff_id, token_count, status, created_at)
         SELECT 'second', ?, kind, ?, ?, token_count, 'active', created_at FROM session_snapshots WHERE id = ?`
      )
      .run(a, JSON.stringify(summaryB!.content), a1, summaryB!.id)
    // A reply of A that recalled a message of B.
    sqlite
      .prepare('INSERT INTO reply_recalls (reply_id, session_id, message_ids) VALUES (?, ?, ?)')
      .run(a2, a, JSON.stringify([a1, b1]))

    const problems = checkChatIntegrity(app.database.db, a)
    const id = summaryA!.id
    expect(problems).toEqual(
      expect.arrayContaining([
        `Message ${a2} has the version group of message ${b1} of another chat (${b}).`,
        `Message ${a2} is set aside in the version of message nowhere, which does not exist.`,
        `Summary ${id} covers up to message ${b2} of another chat (${b}).`,
        `Summary ${id} names as its first message message ${b1} of another chat (${b}).`,
        `Summary ${id} names as its summary Undo re-activates snapshot ${summaryB!.id} of another chat (${b}).`,
        `Summary ${id} names as its cascade base snapshot gone, which does not exist.`,
        `Summary ${id} names itself as its previous summary.`,
        `Summary ${id} names topic topic-${b2}, made from a message of another chat (${b}).`,
        'The chat has 2 active summaries; at most one may be active.',
        `Reply ${a2} recalled message ${b1} of another chat (${b}).`
      ])
    )
    // The copied summary 'second' names B's messages and summaries too.
    expect(problems.filter((p) => p.startsWith('Summary second '))).not.toEqual([])
    // B holds no id of A: it is sound.
    expect(checkChatIntegrity(app.database.db, b)).toEqual([])
  })

  it('reports content that is not a summary’s instead of throwing', async () => {
    const app = open()
    const a = await summarizedChat(app, 'Alpha')
    const [summary] = app.services.compression.snapshots(a)
    app.database.sqlite
      .prepare('UPDATE session_snapshots SET content_json = ? WHERE id = ?')
      .run(JSON.stringify({ summaryText: 1 }), summary!.id)
    expect(checkChatIntegrity(app.database.db, a)).toEqual([
      expect.stringMatching(new RegExp(`^Summary ${summary!.id} has malformed content at `))
    ])
  })
})
