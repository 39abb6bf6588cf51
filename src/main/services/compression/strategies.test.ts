import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { parseOpenAIMessages } from '../../imports/openai-messages'
import { silentLogger } from '../../logger'
import { resolveModel } from '../../models/catalog'
import { useTempDir } from '../../../../test/support/temp-dir'
import { replayConversation } from '../../cli/replay'

const FIXTURE = join(__dirname, '..', '..', '..', '..', 'fixtures', 'conversations', 'trip-planning.jsonl')
const messages = parseOpenAIMessages(readFileSync(FIXTURE, 'utf8')).slice(0, 120)
const gpt4o = resolveModel('openai', 'gpt-4o')!

describe('the tiered and importance strategies in the real compression path', () => {
  const tempDir = useTempDir()

  it('tiered: keeps every request within the window and stores topics and bulks that survive a restart', async () => {
    const dbFile = join(tempDir(), 'tiered.db')
    const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    const result = await replayConversation(app, messages, {
      model: gpt4o,
      contextWindow: 4096,
      maxOutput: 512,
      summarizer: 'extractive',
      strategy: 'tiered'
    })
    expect(result.compressions).toBeGreaterThan(0)
    expect(result.overflows).toBe(0)
    expect(result.maxContextTokens).toBeLessThanOrEqual(result.budget.usable)
    const active = app.services.compression.active(result.sessionId).summary!
    expect(active.content.strategy).toBe('tiered')
    expect(active.content.tiered!.topics.length).toBeGreaterThan(1)
    const kinds = app.services.compression.snapshots(result.sessionId).map((s) => s.kind)
    expect(kinds).toContain('topic')
    await app.close()

    const reopened = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    const again = reopened.services.compression.active(result.sessionId).summary!
    expect(again.content.tiered).toEqual(active.content.tiered)
    expect(
      reopened.services.compression.snapshots(result.sessionId).filter((s) => s.kind === 'topic').length
    ).toBeGreaterThan(0)
    await reopened.close()
  })

  it('tiered: "New topic" closes the current topic at the last message', async () => {
    const app = createApp({ dbFile: join(tempDir(), 'topic.db'), mode: 'browser', log: silentLogger, env: {} })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { strategy: 'tiered' })
    for (const m of messages.slice(0, 6)) await app.services.chat.append(session.id, m)
    expect(app.services.compression.newTopic(session.id)).toEqual({ marked: true })
    expect(app.services.compression.newTopic(session.id)).toEqual({ marked: false })
    for (const m of messages.slice(6, 14)) await app.services.chat.append(session.id, m)
    const { snapshot } = await app.services.compression.run(session.id)
    // Topics may since have been merged into bulks; no topic or bulk may span the boundary.
    const { topics, bulks } = snapshot.content.tiered!
    const ranges = [...bulks, ...topics].map((r) => [r.firstSeq, r.lastSeq] as const)
    expect(ranges.length).toBeGreaterThan(1)
    expect(ranges.filter(([first, last]) => first <= 6 && last > 6)).toEqual([])
    await app.close()
  })

  it("importance: compresses within the window and shows each turn's score in the full history", async () => {
    const app = createApp({ dbFile: join(tempDir(), 'importance.db'), mode: 'browser', log: silentLogger, env: {} })
    const result = await replayConversation(app, messages, {
      model: gpt4o,
      contextWindow: 4096,
      maxOutput: 512,
      summarizer: 'extractive',
      strategy: 'importance'
    })
    expect(result.compressions).toBeGreaterThan(0)
    expect(result.overflows).toBe(0)
    expect(result.maxContextTokens).toBeLessThanOrEqual(result.budget.usable)
    expect(app.services.compression.active(result.sessionId).summary!.content.strategy).toBe('importance')
    const history = app.services.history.list(result.sessionId)
    const scored = history.messages.filter((m) => m.importance)
    expect(scored).toHaveLength(messages.length)
    expect(new Set(scored.map((m) => m.importance!.class)).size).toBeGreaterThan(1)
    // A page of it carries the same scores (scored over the whole chat, once per change).
    const page = app.services.history.page(result.sessionId, { limit: 10 })
    expect(page.messages.map((m) => m.importance)).toEqual(history.messages.slice(-10).map((m) => m.importance))
    await app.services.chat.append(result.sessionId, {
      role: 'user',
      parts: [{ type: 'text', text: 'A decision: we ship on 3 May with 12 people.' }]
    })
    const after = app.services.history.page(result.sessionId, { limit: 1 })
    expect(after.messages[0]!.importance).toBeDefined()
    await app.close()
  })

  it('undo after a tiered compression restores the previous context', async () => {
    const app = createApp({ dbFile: join(tempDir(), 'undo.db'), mode: 'browser', log: silentLogger, env: {} })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { strategy: 'tiered' })
    for (const m of messages.slice(0, 30)) await app.services.chat.append(session.id, m)
    const before = app.services.next.meter(session.id).tokens
    await app.services.compression.run(session.id)
    expect(app.services.next.meter(session.id).tokens).toBeLessThan(before)
    await app.services.compression.undo(session.id)
    expect(app.services.next.meter(session.id).tokens).toBe(before)
    await app.close()
  })
})
